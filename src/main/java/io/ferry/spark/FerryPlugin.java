package io.ferry.spark;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import io.ferry.config.LimitsConfig;
import io.ferry.store.limits.Limits;
import io.ferry.store.limits.Meters;
import io.ferry.store.limits.PrefixControl;
import io.ferry.store.limits.PrefixRates;
import java.util.HashMap;
import java.io.InterruptedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkExecutorInfo;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;
import org.apache.spark.storage.BlockManagerId;

/**
 * Ferry's part of every Spark process ({@code spark.plugins}, added at start):
 * <ul>
 *   <li>a metrics source, so the sinks a cluster already runs (Prometheus servlet, JMX, CSV, Graphite) carry Ferry's
 *       counters per executor under {@code plugin.io.ferry.spark.FerryPlugin}: requests by kind, errors, throttling
 *       answers, retries, ranges, failed ranges, bytes and a histogram of range times;</li>
 *   <li>the job's limits shared out: each executor asks the driver for its share a few times a second, and the
 *       driver divides the job's limits among the executors running tasks at that moment, so the shares follow
 *       executors that come, go or run out of work;</li>
 *   <li>one request rate per key prefix for the whole job: each ask carries what the executor sent to each prefix
 *       and how many answers asked to slow down ({@link PrefixRates}); the driver's {@link PrefixControl} sets the
 *       rates, and shares them out as the limits.</li>
 * </ul>
 */
public final class FerryPlugin implements SparkPlugin {
  /** How often an executor asks for its share. */
  public static final long SHARE_POLL_MILLIS = 250;

  private static volatile LimitsConfig limits = LimitsConfig.NONE;
  private static volatile long limitedAt = System.nanoTime();
  /** The rates per prefix of the job now running (a fresh one per job). */
  private static volatile PrefixControl prefixes = newControl();
  /** Per executor, the times of its two latest asks. */
  private static final Map<String, long[]> asks = new ConcurrentHashMap<>();

  /** The limits of the job now running on this driver (NONE when it ends). */
  public static void limit(LimitsConfig job) {
    limits = job;
    prefixes = newControl();
    limitedAt = System.nanoTime();
  }

  private static PrefixControl newControl() {
    return new PrefixControl(1_000, 60_000);
  }

  /**
   * Waits, at most {@code timeoutMillis}, until every executor holds its share of the limits just set: it has asked
   * twice since, and applies an answer before it asks again. A job's first requests are under its limits too (a
   * fast plan reached the copy before the first poll, and 40 MiB went at 400 MB/s under an 8 MiB/s limit).
   */
  public static void awaitShares(SparkContext sc, long timeoutMillis) throws InterruptedIOException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    while (System.nanoTime() < deadline) {
      int entries = sc.statusTracker().getExecutorInfos().length;
      long since = limitedAt;
      long holding = asks.values().stream().filter(t -> t[0] > since).count();
      if (holding >= (sc.isLocal() ? 1 : Math.max(1, entries - 1))) return;
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while the executors took their share of the limits");
      }
    }
  }

  /**
   * The plugin channel's messages are JDK types only: Spark's RPC layer deserializes them with its own class loader,
   * which on a cluster's executors does not hold the application's classes.
   */
  public static final String SHARE_REQUEST = "ferry.share";

  @Override
  public DriverPlugin driverPlugin() {
    return new DriverPlugin() {
      private SparkContext sc;

      @Override
      public Map<String, String> init(SparkContext context, PluginContext pluginContext) {
        sc = context;
        return Map.of();
      }

      /**
       * An ask: "ferry.share:host:port", then a line "prefix TAB sent TAB throttled" per prefix the executor sent to
       * since its last ask. The answer: its share of the limits, the prefixes held to a rate, and its share of each.
       */
      @Override
      public Object receive(Object message) {
        if (!(message instanceof String m) || !m.startsWith(SHARE_REQUEST + ":")) return null;
        long now = System.nanoTime(); // before the limits are read: an ask after limit() is answered with them
        LimitsConfig job = limits;
        PrefixControl control = prefixes;
        String[] lines = m.split("\n");
        String address = lines[0].substring(SHARE_REQUEST.length() + 1);
        asks.merge(address, new long[] {Long.MIN_VALUE, now}, (old, fresh) -> new long[] {old[1], now});
        double parts = sc.isLocal() ? 1 : parts(address);
        for (int i = 1; i < lines.length; i++) {
          String[] f = lines[i].split("\t");
          if (f.length == 3) control.report(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), now);
        }
        Map<String, Double> rates = job.prefixRates() ? control.rates(now) : Map.of();
        String[] names = rates.keySet().toArray(new String[0]);
        double[] shares = new double[names.length];
        // at least the floor each: a thousand executors' shares of a prefix held to one request a second would queue a
        // stream's request for longer than its signature stays valid
        for (int i = 0; i < names.length; i++) shares[i] = Math.max(PrefixControl.FLOOR, rates.get(names[i]) / parts);
        return new Object[] {new double[] {job.bytesPerSecond() / parts, job.requestsPerSecond() / parts}, names, shares};
      }

      /**
       * Into how many parts the limits are cut for the executor at {@code address}: an executor running tasks shares
       * them with the others running tasks (one that has run out of work leaves its share to them); an idle one is
       * given a share as if all were busy, so that starting work cannot overrun the limit by more than that until
       * its next poll.
       */
      private double parts(String address) {
        int entries = 0, busy = 0;
        boolean askerBusy = false;
        for (SparkExecutorInfo e : sc.statusTracker().getExecutorInfos()) {
          entries++;
          if (e.numRunningTasks() > 0) {
            busy++;
            askerBusy |= (e.host() + ":" + e.port()).equals(address);
          }
        }
        int alive = Math.max(1, entries - 1); // the driver has an entry too, and runs no tasks on a cluster
        return askerBusy ? Math.max(1, busy) : alive;
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
              BlockManagerId me = SparkEnv.get().blockManager().blockManagerId();
              StringBuilder ask = new StringBuilder(SHARE_REQUEST + ":" + me.host() + ":" + me.port());
              PrefixRates.report().forEach((prefix, n) ->
                  ask.append('\n').append(prefix).append('\t').append(n[0]).append('\t').append(n[1]));
              if (context.ask(ask.toString()) instanceof Object[] answer && answer.length == 3 && answer[0] instanceof double[] share
                  && answer[1] instanceof String[] names && answer[2] instanceof double[] rates) {
                Limits.share(share[0], share[1]);
                Map<String, Double> byPrefix = new HashMap<>();
                for (int i = 0; i < names.length; i++) byPrefix.put(names[i], rates[i]);
                PrefixRates.share(byPrefix);
              }
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
        PrefixRates.share(Map.of());
      }
    };
  }

  public static void register(MetricRegistry registry) {
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
