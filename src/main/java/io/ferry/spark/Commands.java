package io.ferry.spark;

import io.ferry.config.MigrationConfig;
import io.ferry.copy.CopyMethod;
import io.ferry.plan.CopyPlan;
import io.ferry.plan.CopyTask;
import io.ferry.plan.RangeTask;
import io.ferry.report.RunSummary;
import io.ferry.report.Units;
import io.ferry.store.s3.S3Clients;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;

/** What the command line runs: {@code migrate} on Spark, {@code plan} on the driver alone. */
public final class Commands {
  private Commands() {}

  /** Lists, plans, copies, commits and reports, on the Spark context {@code spark} is starting. */
  public static RunSummary migrate(MigrationConfig config, SparkStart spark, PrintStream out) throws JobFailure, IOException {
    return MigrationJob.run(config, spark.context("ferry " + config.jobName(), config.sparkMaster()), out);
  }

  /** The dry run: lists and plans, and prints what a run would copy and the requests it would send. */
  public static void plan(MigrationConfig config, PrintStream out) throws JobFailure {
    CopySettings settings = new CopySettings(config.source(), config.destination(), MigrationJob.newRunId(Instant.now()), config.copy());
    CopyMethod method = CopyMethod.choose(config.source(), config.destination());
    Planning.Result result = Planning.plan(config, ExecutorContext.source(settings), ExecutorContext.destination(settings),
        method == CopyMethod.SERVER_SIDE_COPY);
    CopyPlan plan = result.plan();
    long whole = 0, parts = 0, gets = plan.getRequests();
    for (CopyTask task : plan.tasks()) for (RangeTask range : task.ranges()) if (range.wholeObject()) whole++; else parts++;
    out.printf("Plan for %s: %s -> %s%n", config.jobName(), config.source().describe(), config.destination().describe());
    out.printf("  objects   %d to copy (%d split into ranges), %d skipped unchanged, %d rejected, %d listed%n",
        plan.objects(), plan.splitObjects(), plan.skippedObjects(), result.rejected().size(), result.listing().listed());
    out.printf("  bytes     %s (%d)%n", Units.bytes(plan.bytes()), plan.bytes());
    out.printf("  ranges    %d in %d tasks; method %s%n", plan.ranges(), plan.tasks().size(), MigrationJob.methodName(method));
    String read = config.source().store() instanceof io.ferry.config.BucketConfig ? "GET" : "file reads";
    String requests = switch (method) {
      case STREAM_TO_FILE -> gets + " " + read;
      case STREAM_TO_BUCKET -> gets + " " + read + ", " + whole + " PutObject, " + parts + " UploadPart, "
          + plan.splitObjects() + " CreateMultipartUpload + CompleteMultipartUpload";
      case SERVER_SIDE_COPY -> whole + " CopyObject, " + parts + " UploadPartCopy, " + plan.splitObjects()
          + " CreateMultipartUpload + CompleteMultipartUpload (no bytes through Spark)";
    };
    out.printf("  requests  %d LIST pages, %s%n", result.listing().pages(), requests);
    result.rejected().forEach(r -> out.printf("  rejected  %s: %s%n", r.object().key(), r.reason()));
  }

  /** Closes every cached S3 client (the end of a command-line run). */
  public static void closeClients() {
    S3Clients.closeAll();
  }
}
