package io.ferry.spark;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import io.ferry.store.Meters;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * Ferry's counters as a Spark metrics source ({@code spark.plugins}), so the sinks a cluster already runs (Prometheus
 * servlet, JMX, CSV, Graphite) carry them: requests by kind, errors, throttling answers, retries, ranges, failed
 * ranges, bytes and a histogram of range times, per executor under {@code plugin.io.ferry.spark.FerryMetrics}.
 */
public final class FerryMetrics implements SparkPlugin {
  @Override
  public DriverPlugin driverPlugin() {
    return null; // the driver sends no ranges; in local mode the executor in its JVM registers the source
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return new ExecutorPlugin() {
      @Override
      public void init(PluginContext context, Map<String, String> extraConf) {
        register(context.metricRegistry());
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
