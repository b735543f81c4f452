package io.ferry;

import io.ferry.config.MigrationConfig;
import io.ferry.copy.ObjectResult;
import io.ferry.copy.PartTally;
import io.ferry.copy.RangeResult;
import io.ferry.destination.FileDestination;
import io.ferry.plan.CopyPlan;
import io.ferry.report.ReportWriter;
import io.ferry.report.RunSummary;
import io.ferry.source.S3Errors;
import io.ferry.spark.CopyRangesFunction;
import io.ferry.spark.CommitFunction;
import io.ferry.spark.CopySettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The driver: config → LIST → PLAN → COPY (executors) → COMMIT (executors) → REPORT. The only class besides
 * {@code spark/} and {@code report/} that touches Spark; every step's logic lives in Spark-free classes.
 */
public final class MigrationJob {
  private static final DateTimeFormatter RUN_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private MigrationJob() {}

  public static String newRunId(Instant now) {
    return RUN_TIME.format(now) + "-" + String.format("%04x", ThreadLocalRandom.current().nextInt(0x10000));
  }

  public static RunSummary run(MigrationConfig config, SparkSession spark, PrintStream out) throws JobFailure, IOException {
    Instant started = Instant.now();
    String runId = newRunId(started);
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Path root = Path.of(config.destination().path()).toAbsolutePath().normalize();
    FileDestination destination = new FileDestination(root, runId);
    Path marker = preflight(root, runId, jsc);
    try {
      out.printf("Ferry %s run %s: %s -> %s%n", config.jobName(), runId, config.source().describe(), root);
      Planning.Result planning = Planning.plan(config, destination);
      CopyPlan plan = planning.plan();
      out.printf("LIST  %d objects listed (%d pages), %d selected, %d skipped unchanged, %d rejected%n",
          planning.listing().listed(), planning.listing().pages(), planning.listing().selected(), plan.skippedObjects(),
          planning.rejected().size());
      out.printf("PLAN  %d objects, %s in %d ranges (%d objects split), %d tasks%n", plan.objects(), Console.bytes(plan.bytes()),
          plan.ranges(), plan.splitObjects(), plan.tasks().size());

      CopySettings settings = new CopySettings(config.source(), root.toString(), runId, config.copy());
      int slices = slices(plan.tasks().size(), config.copy().streamsPerTask(), jsc.defaultParallelism());
      jsc.setJobGroup("COPY", "COPY: " + plan.ranges() + " ranges of " + plan.objects() + " objects", true);
      JavaRDD<RangeResult> ranges = jsc.parallelize(plan.tasks(), slices)
          .mapPartitions(new CopyRangesFunction(settings))
          .persist(StorageLevel.MEMORY_AND_DISK_SER());
      long copyStart = System.nanoTime();
      try (Console.Progress progress = Console.progress(jsc, "COPY", plan.bytes(), out)) {
        ranges.count();
      }
      double copySeconds = (System.nanoTime() - copyStart) / 1e9;

      jsc.setJobGroup("COMMIT", "COMMIT: complete or abort each object", true);
      JavaRDD<ObjectResult> committed = ranges
          .mapToPair(r -> new Tuple2<>(r.object().key(), PartTally.of(r)))
          .reduceByKey(PartTally::merge)
          .values()
          .map(new CommitFunction(settings))
          .persist(StorageLevel.MEMORY_AND_DISK_SER());
      committed.count();
      JavaRDD<ObjectResult> objects = committed.union(jsc.parallelize(planning.rejected(), 1));

      ReportWriter writer = new ReportWriter(spark, config.reportPath(), config.jobName(), runId);
      RunSummary summary = writer.write(new ReportWriter.RunInfo(config.jobName(), runId, config.source().describe(),
          root.toString(), started, planning.listing().selected(), plan.skippedObjects(), plan.splitObjects(),
          planning.listing().pages(), copySeconds), ranges, objects);
      ranges.unpersist();
      committed.unpersist();
      Console.printSummary(summary, out);
      return summary;
    } finally {
      Files.deleteIfExists(marker);
    }
  }

  /** Enough partitions to keep every core busy, and about streams-per-task ranges in each. */
  static int slices(int tasks, int streamsPerTask, int defaultParallelism) {
    if (tasks == 0) return 1;
    int byStreams = (tasks + streamsPerTask - 1) / streamsPerTask;
    return Math.max(1, Math.min(tasks, Math.max(byStreams, defaultParallelism)));
  }

  /**
   * The destination must exist (or be creatable), be writable, and (on a cluster) be the same shared directory on
   * every executor: a marker file written here must be visible there.
   */
  private static Path preflight(Path root, String runId, JavaSparkContext jsc) throws JobFailure {
    try {
      Files.createDirectories(root);
    } catch (IOException e) {
      throw new JobFailure("ferry.destination.path = " + root + " cannot be created: " + S3Errors.describe(e));
    }
    Path marker = root.resolve(".ferry-" + runId + ".marker");
    try {
      Files.writeString(marker, runId);
    } catch (IOException e) {
      throw new JobFailure("ferry.destination.path = " + root + " is not writable: " + S3Errors.describe(e));
    }
    String markerPath = marker.toString();
    int probes = Math.max(1, jsc.defaultParallelism());
    jsc.setJobGroup("PREFLIGHT", "PREFLIGHT: is the destination shared with every executor?", true);
    List<String> blind = jsc.parallelize(IntStream.range(0, probes).boxed().toList(), probes)
        .filter(i -> !Files.exists(Path.of(markerPath)))
        .map(i -> java.net.InetAddress.getLocalHost().getHostName())
        .distinct()
        .collect();
    if (!blind.isEmpty()) {
      try {
        Files.deleteIfExists(marker);
      } catch (IOException ignored) {
        // best effort
      }
      throw new JobFailure("ferry.destination.path = " + root + " is not visible from executors on " + blind
          + ": on a cluster the destination must be a shared mount (NFS, a shared volume) at the same path on every node");
    }
    return marker;
  }
}
