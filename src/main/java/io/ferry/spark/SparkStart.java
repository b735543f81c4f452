package io.ferry.spark;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkContext$;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Option;

/**
 * Starts Spark on threads of its own while the driver reads the job and then lists and plans: building Spark's
 * configuration loads a good part of Spark and Scala, and a local start takes seconds, as long as a listing can.
 */
public final class SparkStart {
  private final CompletableFuture<SparkConf> conf = new CompletableFuture<>();

  private SparkStart() {}

  /** Begins building Spark's configuration now. */
  public static SparkStart begin() {
    SparkStart start = new SparkStart();
    daemon("ferry-spark-conf", () -> {
      try {
        start.conf.complete(new SparkConf());
      } catch (Throwable e) {
        start.conf.completeExceptionally(e);
      }
    });
    return start;
  }

  /** Ferry's metrics source added to the plugins a user may have set (Spark takes a comma-separated list). */
  public static SparkConf withMetrics(SparkConf sparkConf) {
    String plugins = sparkConf.get("spark.plugins", "");
    String ours = FerryPlugin.class.getName();
    if (!Arrays.asList(plugins.split(",")).contains(ours)) sparkConf.set("spark.plugins", plugins.isBlank() ? ours : plugins
        + "," + ours);
    return sparkConf;
  }

  public Future<JavaSparkContext> context(String appName, String master) {
    CompletableFuture<JavaSparkContext> spark = new CompletableFuture<>();
    daemon("ferry-spark-start", () -> {
      try {
        // A SparkContext, not a SparkSession: Ferry needs no Spark SQL, whose start-up loads Scala reflection.
        SparkConf sparkConf;
        try {
          sparkConf = conf.join().setAppName(appName);
        } catch (CompletionException e) {
          throw e.getCause(); // what went wrong building it, not the future's wrapper
        }
        sparkConf.setIfMissing("spark.master", master);
        // the progress line reads running tasks' counters from executor heartbeats (Spark's default: every 10 s)
        sparkConf.setIfMissing("spark.executor.heartbeatInterval", "2s");
        // Ferry's tasks read and write remote stores: where their small RDD elements are cached is worth nothing,
        // and Spark's default 3 s wait for a "local" executor holds the others idle at the start of every stage
        sparkConf.setIfMissing("spark.locality.wait", "0s");
        // the listing shards and the copy's lanes are counted from the cores registered when they start: wait for the
        // executors asked for (at most spark.scheduler.maxRegisteredResourcesWaitingTime, 30 s by default)
        sparkConf.setIfMissing("spark.scheduler.minRegisteredResourcesRatio", "1.0");
        withMetrics(sparkConf);
        // a stable prefix for Ferry's metrics (Spark's default, the application id, differs per run and is not yet
        // known when a local executor registers its sources, which Spark warns about)
        sparkConf.setIfMissing("spark.metrics.namespace", "ferry");
        // getActive is Spark-internal, but getOrCreate(conf) would warn that conf may not take effect.
        Option<SparkContext> active = SparkContext$.MODULE$.getActive();
        spark.complete(JavaSparkContext.fromSparkContext(active.isDefined() ? active.get() : SparkContext.getOrCreate(sparkConf)));
      } catch (Throwable e) {
        spark.completeExceptionally(e);
      }
    });
    return spark;
  }

  private static void daemon(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    thread.start();
  }
}
