package io.ferry;

import io.ferry.config.ConfigException;
import io.ferry.config.ConfigLoader;
import io.ferry.config.MigrationConfig;
import io.ferry.config.DestinationConfig;
import io.ferry.config.SourceConfig;
import io.ferry.copy.CopyMethod;
import io.ferry.plan.CopyPlan;
import io.ferry.report.RunSummary;
import io.ferry.source.S3Clients;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkContext$;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Option;

/**
 * The command line: {@code ferry migrate|plan <job.conf> [-Dferry.key=value ...]}.
 *
 * <p>Exit codes: 0 everything copied; 1 the run finished but some objects failed (see the report); 2 usage or
 * configuration error; 3 the job could not run (source not listable, destination not writable).
 */
public final class Ferry {
  public static final int OK = 0;
  public static final int SOME_FAILED = 1;
  public static final int BAD_CONFIG = 2;
  public static final int JOB_FAILED = 3;

  private static final String USAGE = """
      usage: ferry <command> <job.conf> [-Dferry.key=value ...]
        migrate   list, plan and copy the source to the destination, then write the report
        plan      list and plan only (a dry run): objects, ranges, bytes and requests, nothing copied
      Settings and their defaults: reference.conf; examples: conf/examples/.""";

  private Ferry() {}

  public static void main(String[] args) {
    int code = run(args, System.out, System.err);
    S3Clients.closeAll();
    System.exit(code);
  }

  /** Runs a command and returns its exit code; never calls {@code System.exit}. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    List<String> positional = new ArrayList<>();
    Map<String, String> overrides = new LinkedHashMap<>();
    for (String arg : args) {
      if (arg.startsWith("-D") && arg.contains("=")) {
        overrides.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
      } else if (arg.equals("-h") || arg.equals("--help")) {
        out.println(USAGE);
        return OK;
      } else {
        positional.add(arg);
      }
    }
    if (positional.size() != 2 || !List.of("migrate", "plan").contains(positional.get(0))) {
      err.println(USAGE);
      return BAD_CONFIG;
    }
    // Spark's configuration object loads a good part of Spark and Scala (0.5 s of a local run's start): it is built
    // while the job's configuration is read and checked, on a thread of its own.
    CompletableFuture<SparkConf> sparkConf = new CompletableFuture<>();
    if (positional.get(0).equals("migrate")) {
      Thread thread = new Thread(() -> {
        try {
          sparkConf.complete(new SparkConf());
        } catch (Throwable e) {
          sparkConf.completeExceptionally(e);
        }
      }, "ferry-spark-conf");
      thread.setDaemon(true);
      thread.start();
    }
    MigrationConfig config;
    try {
      config = ConfigLoader.load(Path.of(positional.get(1)), overrides);
    } catch (ConfigException e) {
      err.println("ferry: the job configuration has " + (e.problems().size() == 1 ? "a problem" : e.problems().size() + " problems") + ":");
      e.problems().forEach(p -> err.println("  - " + p));
      return BAD_CONFIG;
    }
    try {
      return positional.get(0).equals("plan") ? plan(config, out) : migrate(config, sparkConf, out);
    } catch (JobFailure e) {
      err.println("ferry: " + e.getMessage());
      return JOB_FAILED;
    } catch (Exception e) {
      err.println("ferry: the run failed: " + io.ferry.source.S3Errors.describe(e));
      return JOB_FAILED;
    }
  }

  private static int plan(MigrationConfig config, PrintStream out) throws JobFailure {
    SourceConfig source = MigrationJob.absolute(config.source());
    DestinationConfig destination = MigrationJob.absolute(config.destination());
    Planning.Result result = Planning.plan(config, source, destination, MigrationJob.newRunId(Instant.now()));
    CopyPlan plan = result.plan();
    CopyMethod method = CopyMethod.choose(source, destination);
    long whole = 0, parts = 0, gets = plan.getRequests();
    for (var task : plan.tasks()) for (var range : task.ranges()) if (range.wholeObject()) whole++; else parts++;
    out.printf("Plan for %s: %s -> %s%n", config.jobName(), source.describe(), destination.describe());
    out.printf("  objects   %d to copy (%d split into ranges), %d skipped unchanged, %d rejected, %d listed%n",
        plan.objects(), plan.splitObjects(), plan.skippedObjects(), result.rejected().size(), result.listing().listed());
    out.printf("  bytes     %s (%d)%n", io.ferry.report.Units.bytes(plan.bytes()), plan.bytes());
    out.printf("  ranges    %d in %d tasks; method %s%n", plan.ranges(), plan.tasks().size(), method.name().toLowerCase().replace('_', '-'));
    String read = source.kind() == io.ferry.config.StoreKind.S3 ? "GET" : "file reads";
    String requests = switch (method) {
      case STREAM_TO_FILE -> gets + " " + read;
      case STREAM_TO_BUCKET -> gets + " " + read + ", " + whole + " PutObject, " + parts + " UploadPart, "
          + plan.splitObjects() + " CreateMultipartUpload + CompleteMultipartUpload";
      case SERVER_SIDE_COPY -> whole + " CopyObject, " + parts + " UploadPartCopy, " + plan.splitObjects()
          + " CreateMultipartUpload + CompleteMultipartUpload (no bytes through Spark)";
    };
    out.printf("  requests  %d LIST pages, %s%n", result.listing().pages(), requests);
    result.rejected().forEach(r -> out.printf("  rejected  %s: %s%n", r.object().key(), r.error()));
    return OK;
  }

  private static int migrate(MigrationConfig config, CompletableFuture<SparkConf> sparkConf, PrintStream out) throws Exception {
    // Spark starts on its own thread while the driver lists and plans (a local start is ~2 s, a listing can be as long).
    CompletableFuture<JavaSparkContext> spark = new CompletableFuture<>();
    Thread start = new Thread(() -> {
      try {
        // A SparkContext, not a SparkSession: Ferry needs no Spark SQL, and a SparkSession's start-up loads Scala
        // reflection (~1 s of a local run's start, -Xlog:class+load).
        SparkConf conf;
        try {
          conf = sparkConf.join().setAppName("ferry " + config.jobName());
        } catch (java.util.concurrent.CompletionException e) {
          throw e.getCause(); // what went wrong building it, not the future's wrapper
        }
        if (!conf.contains("spark.master")) conf.setMaster(config.sparkMaster());
        // An embedding JVM's running context (the demo's second job, tests) as it is; getActive is Spark-internal,
        // but getOrCreate(conf) would warn that conf may not take effect.
        Option<SparkContext> active = SparkContext$.MODULE$.getActive();
        spark.complete(JavaSparkContext.fromSparkContext(active.isDefined() ? active.get() : SparkContext.getOrCreate(conf)));
      } catch (Throwable e) {
        spark.completeExceptionally(e);
      }
    }, "ferry-spark-start");
    start.setDaemon(true);
    start.start();
    RunSummary summary = MigrationJob.run(config, spark, out);
    return summary.succeeded() ? OK : SOME_FAILED;
  }
}
