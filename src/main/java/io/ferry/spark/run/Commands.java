package io.ferry.spark.run;

import io.ferry.config.MigrationConfig;
import io.ferry.ledger.Cleanup;
import io.ferry.ledger.Ledger;
import io.ferry.ledger.RunLock;
import io.ferry.report.RunSummary;
import io.ferry.report.StageTimes;
import io.ferry.report.VerifySummary;
import io.ferry.spark.CopySettings;
import io.ferry.spark.ExecutorContext;
import io.ferry.spark.JobFailure;
import io.ferry.spark.SparkStart;
import io.ferry.store.Destination;
import io.ferry.store.retry.Retrier;
import io.ferry.store.s3.S3Clients;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;

/** What the command line runs: {@code migrate}, {@code plan} and {@code verify} on Spark, {@code cleanup} on the driver alone. */
public final class Commands {
  private Commands() {}

  /** Lists, plans, copies, commits and reports, on the Spark context {@code spark} is starting. */
  public static RunSummary migrate(MigrationConfig config, SparkStart spark, PrintStream out) throws JobFailure, IOException {
    var context = spark.context("ferry " + config.jobName(), config.sparkMaster());
    RunSummary first = MigrationJob.run(config, context, out);
    return RestoreWait.until(config.source().archived(), first, () -> MigrationJob.run(config, context, out), RestoreWait.SLEEP,
        System::currentTimeMillis, out);
  }

  /** What {@code verify} is asked for: the differences, or a completion manifest ({@code --manifest}) that proves there are none. */
  public enum Verify { DIFFERENCES, MANIFEST }

  /** Compares the destination with the source without copying; the summary says whether they match, or are proven to. */
  public static VerifySummary verify(MigrationConfig config, SparkStart spark, Verify asked, PrintStream out) throws JobFailure,
      IOException {
    return VerifyJob.run(config, spark.context("ferry verify " + config.jobName(), config.sparkMaster()), asked, out);
  }

  /**
   * The dry run, on Spark as a run would list and plan (local mode unless spark-submit gives a master): prints what a
   * run would copy, set aside and delete, and the requests it would send.
   */
  public static void plan(MigrationConfig config, SparkStart spark, PrintStream out) throws JobFailure, IOException {
    JavaSparkContext jsc = MigrationJob.started(spark.context("ferry plan " + config.jobName(), config.sparkMaster()));
    // read only: as the run would plan, the objects left open keep their parts and a replay knows what it wrote
    Modes modes = Modes.dry(config);
    try (RunContext run = RunContext.of(config, settings(config), jsc, RunContext.Lock.NONE, new StageTimes(), Instant.now(), out)) {
      try (Planned planned = Planning.plan(run, modes)) {
        DryRunConsole.print(run, planned, modes);
      } finally {
        modes.ended(run); // a delta's messages handed back
      }
    }
  }

  private static CopySettings settings(MigrationConfig config) {
    return new CopySettings(config.source(), config.destination(), config.jobName(), MigrationJob.newRunId(Instant.now()), config.copy());
  }

  /** {@link Cleanup}, under the job's lock: returns how many things could not be removed. */
  public static int cleanup(MigrationConfig config, boolean dryRun, PrintStream out) throws JobFailure, IOException {
    CopySettings settings = settings(config);
    Configuration hadoop = hadoopConfiguration();
    Ledger ledger = RunContext.ledger(config, hadoop);
    Destination destination = ExecutorContext.destination(settings);
    Retrier retrier = ExecutorContext.retrier(settings);
    out.printf("Cleanup of job %s at %s%s%n", config.jobName(), config.destination().describe(), dryRun ? " (dry run: nothing removed)"
        : "");
    try (RunLock lock = MigrationJob.lock(ledger, hadoop, config.jobName(), settings.runId())) {
      Cleanup.Result result = new Cleanup(ledger, destination, retrier, dryRun, e -> Console.printCleanup(e, dryRun, out))
          .run(config.jobName());
      out.printf("%s %d %s%s%n", dryRun ? "Would remove" : "Removed", result.removed(), result.removed() == 1 ? "thing" : "things",
          result.failed() == 0 ? "" : "; " + result.failed() + " could not be removed and stay in the ledger for the next cleanup");
      return result.failed();
    }
  }

  /** Hadoop's configuration as Spark would give it (the {@code spark.hadoop.*} settings), for commands that run no Spark. */
  private static Configuration hadoopConfiguration() {
    Configuration conf = new Configuration();
    System.getProperties().forEach((k, v) -> {
      String key = k.toString();
      if (key.startsWith("spark.hadoop.")) conf.set(key.substring("spark.hadoop.".length()), v.toString());
    });
    return conf;
  }

  /** Closes every cached S3 client (the end of a command-line run). */
  public static void closeClients() {
    S3Clients.closeAll();
  }
}
