package io.ferry.spark;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import io.ferry.config.LimitsConfig;
import io.ferry.store.Limits;
import io.ferry.store.Meters;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.spark.SparkContext;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * Ferry's part of every Spark process ({@code spark.plugins}, added at start):
 * <ul>
 *   <li>a metrics source, so the sinks a cluster already runs (Prometheus servlet, JMX, CSV, Graphite) carry Ferry's
 *       counters per executor under {@code plugin.io.ferry.spark.FerryPlugin}: requests by kind, errors, throttling
 *       answers, retries, ranges, failed ranges, bytes and a histogram of range times;</li>
 *   <li>the job's limits shared out: each executor asks the driver for its share a few times a second, and the
 *       driver divides the job's limits by the executors alive at that moment, so the shares follow executors that
 *       come and go.</li>
 * </ul>
 */
public final class FerryPlugin implements SparkPlugin {
  /** How often an executor asks for its share. */
  static final long SHARE_POLL_MILLIS = 250;

  private static volatile LimitsConfig limits = LimitsConfig.NONE;

  /** The limits of the job now running on this driver (NONE when it ends). */
  static void limit(LimitsConfig job) {
    limits = job;
  }

  /**
   * The plugin channel's messages are JDK types only: Spark's RPC layer deserializes them with its own class loader,
   * which on a cluster's executors does not hold the application's classes.
   */
  static final String SHARE_REQUEST = "ferry.share";

  @Override
  public DriverPlugin driverPlugin() {
    return new DriverPlugin() {
      private SparkContext sc;

      @Override
      public Map<String, String> init(SparkContext context, PluginContext pluginContext) {
        sc = context;
        return Map.of();
      }

      @Override
      public Object receive(Object message) {
        if (!SHARE_REQUEST.equals(message)) return null;
        LimitsConfig job = limits;
        int executors = sc.isLocal() ? 1 : Math.max(1, sc.getExecutorMemoryStatus().size() - 1); // less the driver's
        return new double[] {(double) job.bytesPerSecond() / executors, job.requestsPerSecond() / executors};
      }
    };
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return new ExecutorPlugin() {
      private Thread poller;

      @Override
      public void init(PluginContext context, Map<String, String> extraConf) {
        register(context.metricRegistry());
        poller = new Thread(() -> {
          while (!Thread.currentThread().isInterrupted()) {
            try {
              if (context.ask(SHARE_REQUEST) instanceof double[] share && share.length == 2) Limits.share(share[0], share[1]);
              Thread.sleep(SHARE_POLL_MILLIS);
            } catch (InterruptedException e) {
              return;
            } catch (Exception driverGone) {
              try {
                Thread.sleep(SHARE_POLL_MILLIS);
              } catch (InterruptedException e) {
                return;
              }
            }
          }
        }, "ferry-limits");
        poller.setDaemon(true);
        poller.start();
      }

      @Override
      public void shutdown() {
        if (poller != null) poller.interrupt();
        Limits.share(0, 0);
      }
    };
  }

  static void register(MetricRegistry registry) {
    for (Meters.Request kind : Meters.Request.values()) gauge(registry, kind.metric(), () -> Meters.requests(kind));
    gauge(registry, "errors", Meters::errors);
    gauge(registry, "throttled", Meters::throttled);
    gauge(registry, "retries", Meters::retries);
    gauge(registry, "ranges", Meters::ranges);
    gauge(registry, "failed-ranges", Meters::failedRanges);
    gauge(registry, "bytes", Meters::bytes);
    Histogram rangeMillis = registry.histogram("range-ms");
    Meters.onRangeMillis(rangeMillis::update);
  }

  private static void gauge(MetricRegistry registry, String name, LongSupplier value) {
    registry.register(name, (Gauge<Long>) value::getAsLong);
  }
}
