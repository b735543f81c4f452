package io.ferry;

import io.ferry.config.DestinationConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.config.SourceConfig;
import io.ferry.config.StoreKind;
import io.ferry.copy.CopyMethod;
import io.ferry.copy.ObjectResult;
import io.ferry.copy.PartTally;
import io.ferry.copy.RangeResult;
import io.ferry.destination.S3Destination;
import io.ferry.plan.CopyPlan;
import io.ferry.plan.CopyTask;
import io.ferry.plan.RangeTask;
import io.ferry.plan.SourceObject;
import io.ferry.report.ReportWriter;
import io.ferry.report.RunSummary;
import io.ferry.source.S3Clients;
import io.ferry.source.S3Errors;
import io.ferry.spark.CommitFunction;
import io.ferry.spark.CopyRangesFunction;
import io.ferry.spark.CopySettings;
import io.ferry.spark.OpenUploadFunction;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The driver: config → LIST → PLAN → OPEN (multipart uploads) → COPY (executors) → COMMIT (executors) → REPORT.
 * The only class besides {@code spark/} and {@code report/} that touches Spark; every step's logic lives in
 * Spark-free classes.
 */
public final class MigrationJob {
  private static final DateTimeFormatter RUN_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private MigrationJob() {}

  public static String newRunId(Instant now) {
    return RUN_TIME.format(now) + "-" + String.format("%04x", ThreadLocalRandom.current().nextInt(0x10000));
  }

  /** The source with its directory made absolute (executors must not depend on the driver's working directory). */
  static SourceConfig absolute(SourceConfig s) {
    if (s.kind() != StoreKind.FILE) return s;
    return new SourceConfig(s.kind(), s.endpoint(), s.bucket(), s.prefix(), Path.of(s.path()).toAbsolutePath().normalize().toString(),
        s.include(), s.exclude());
  }

  static DestinationConfig absolute(DestinationConfig d) {
    if (d.kind() != StoreKind.FILE) return d;
    return new DestinationConfig(d.kind(), Path.of(d.path()).toAbsolutePath().normalize().toString(), d.endpoint(), d.bucket(),
        d.prefix(), d.storageClass(), d.serverSideEncryption(), d.kmsKeyId(), d.serverSideCopy(), d.tags());
  }

  /** A run on a Spark context that is already up (the demo, tests). */
  public static RunSummary run(MigrationConfig config, JavaSparkContext jsc, PrintStream out) throws JobFailure, IOException {
    return run(config, CompletableFuture.completedFuture(jsc), out);
  }

  /**
   * A run on a Spark context that may still be starting: the preflight, listing and planning need no Spark and run
   * meanwhile; the stage "spark" is what is left of its start after them (and, on a cluster, the shared-directory
   * check, which needs the executors).
   */
  public static RunSummary run(MigrationConfig config, Future<JavaSparkContext> spark, PrintStream out) throws JobFailure, IOException {
    Instant started = Instant.now();
    String runId = newRunId(started);
    SourceConfig source = absolute(config.source());
    DestinationConfig destination = absolute(config.destination());
    CopySettings settings = new CopySettings(source, destination, runId, config.copy());
    Stopwatch stages = new Stopwatch();
    Path marker = preflight(destination, runId);
    stages.lap("preflight");
    Map<SourceObject, String> uploads = new LinkedHashMap<>();
    boolean committed = false;
    try {
      out.printf("Ferry %s run %s: %s -> %s%n", config.jobName(), runId, source.describe(), destination.describe());
      Planning.Result planning = Planning.plan(config, source, destination, runId);
      stages.lap("list+plan");
      JavaSparkContext jsc = started(spark);
      if (marker != null) checkShared(marker, jsc);
      stages.lap("spark");
      CopyPlan plan = planning.plan();
      CopyMethod method = CopyMethod.choose(source, destination);
      out.printf("LIST  %d objects listed, %d selected, %d skipped unchanged, %d rejected%n",
          planning.listing().listed(), planning.listing().selected(), plan.skippedObjects(), planning.rejected().size());
      out.printf("PLAN  %d objects, %s in %d ranges (%d objects split), %d tasks; method %s%n", plan.objects(),
          io.ferry.report.Units.bytes(plan.bytes()), plan.ranges(), plan.splitObjects(), plan.tasks().size(), method.name().toLowerCase().replace('_', '-'));

      List<CopyTask> tasks = plan.tasks();
      if (destination.kind() == StoreKind.S3 && plan.splitObjects() > 0) {
        uploads.putAll(openUploads(jsc, settings, tasks));
        tasks = withUploadIds(tasks, uploads);
        stages.lap("open");
      }

      int slices = slices(tasks.size(), config.copy().streamsPerTask(), jsc.defaultParallelism());
      jsc.setJobGroup("COPY", "COPY: " + plan.ranges() + " ranges of " + plan.objects() + " objects", true);
      JavaRDD<RangeResult> ranges = jsc.parallelize(tasks, slices)
          .mapPartitions(new CopyRangesFunction(settings))
          .persist(StorageLevel.MEMORY_AND_DISK_SER());
      long copyStart = System.currentTimeMillis();
      try (Console.Progress progress = Console.progress(jsc, "COPY", plan.bytes(), out)) {
        ranges.count();
      }
      long copyEnd = System.currentTimeMillis();
      stages.lap("copy");

      jsc.setJobGroup("COMMIT", "COMMIT: complete or abort each object", true);
      JavaRDD<ObjectResult> objects = commit(ranges, plan, settings).persist(StorageLevel.MEMORY_AND_DISK_SER());
      objects.count();
      committed = true;
      stages.lap("commit");

      ReportWriter writer = new ReportWriter(jsc.sc(), config.reportPath(), config.jobName(), runId);
      RunSummary summary = writer.write(new ReportWriter.RunInfo(config.jobName(), runId, source.describe(),
          destination.describe(), started, planning.listing().selected(), plan.skippedObjects(), plan.splitObjects(),
          planning.listing().pages(), copyStart, copyEnd, stages), ranges, objects.union(jsc.parallelize(planning.rejected(), 1)));
      ranges.unpersist();
      objects.unpersist();
      Console.printSummary(summary, out);
      return summary;
    } finally {
      if (!committed) abortUploads(destination, uploads, out);
      if (marker != null) Files.deleteIfExists(marker);
    }
  }

  /**
   * COMMIT's input: an object copied in one range is committed where its range result lies, in the copy's own
   * partitions (no shuffle); only the parts of split objects are brought together by key first. For 2,000 small
   * objects the shuffle was most of the stage (bench/results/README.md, round 4).
   */
  static JavaRDD<ObjectResult> commit(JavaRDD<RangeResult> ranges, CopyPlan plan, CopySettings settings) {
    JavaRDD<ObjectResult> whole = ranges.filter(r -> r.partCount() == 1).map(PartTally::of)
        .mapPartitions(new CommitFunction(settings));
    if (plan.splitObjects() == 0) return whole;
    JavaRDD<ObjectResult> split = ranges.filter(r -> r.partCount() > 1)
        .mapToPair(r -> new Tuple2<>(r.object().key(), PartTally.of(r)))
        .reduceByKey(PartTally::merge)
        .values()
        .mapPartitions(new CommitFunction(settings));
    return plan.splitObjects() == plan.objects() ? split : whole.union(split);
  }

  /**
   * OPEN: one multipart upload per split object, opened on the executors (a HEAD of the source for its metadata,
   * then CreateMultipartUpload), so a bucket with many large objects does not wait on the driver.
   */
  private static Map<SourceObject, String> openUploads(JavaSparkContext jsc, CopySettings settings, List<CopyTask> tasks) {
    List<SourceObject> split = new ArrayList<>();
    for (CopyTask task : tasks) {
      for (RangeTask range : task.ranges()) if (!range.wholeObject() && range.partNumber() == 1) split.add(range.object());
    }
    jsc.setJobGroup("OPEN", "OPEN: " + split.size() + " multipart uploads", true);
    int slices = Math.max(1, Math.min(split.size(), jsc.defaultParallelism() * 4));
    Map<SourceObject, String> opened = new LinkedHashMap<>();
    List<Tuple2<SourceObject, String>> results = jsc.parallelize(split, slices).mapPartitions(new OpenUploadFunction(settings)).collect();
    List<String> errors = new ArrayList<>();
    for (Tuple2<SourceObject, String> r : results) {
      if (r._2().startsWith(OpenUploadFunction.FAILED)) {
        errors.add(r._1().key() + ": " + r._2().substring(OpenUploadFunction.FAILED.length()));
      } else {
        opened.put(r._1(), r._2());
      }
    }
    if (!errors.isEmpty()) {
      abortUploads(settings.destination(), opened, null);
      throw new IllegalStateException("cannot open multipart uploads at " + settings.destination().describe() + ": "
          + String.join("; ", errors.subList(0, Math.min(3, errors.size()))));
    }
    return opened;
  }

  private static List<CopyTask> withUploadIds(List<CopyTask> tasks, Map<SourceObject, String> uploads) {
    List<CopyTask> out = new ArrayList<>(tasks.size());
    for (CopyTask task : tasks) {
      List<RangeTask> ranges = new ArrayList<>(task.ranges().size());
      for (RangeTask r : task.ranges()) ranges.add(r.wholeObject() ? r : r.withUploadId(uploads.get(r.object())));
      out.add(new CopyTask(task.id(), ranges));
    }
    return out;
  }

  /** The run ended before its commit: no upload it opened may stay open (they hold storage and are invisible). */
  private static void abortUploads(DestinationConfig destination, Map<SourceObject, String> uploads, PrintStream out) {
    if (uploads.isEmpty()) return;
    S3Destination bucket = new S3Destination(S3Clients.control(destination.endpoint()), destination);
    int failed = 0;
    for (Map.Entry<SourceObject, String> e : uploads.entrySet()) {
      try {
        bucket.abortUpload(e.getKey(), e.getValue());
      } catch (RuntimeException ex) {
        failed++;
      }
    }
    if (out != null) {
      out.printf("ABORT %d open multipart uploads%s%n", uploads.size(), failed == 0 ? "" : " (" + failed + " aborts failed)");
    }
  }

  /** Seconds per stage of the run, in order, for the summary: where the wall time went. */
  public static final class Stopwatch {
    private final Map<String, Double> laps = new LinkedHashMap<>();
    private long last = System.nanoTime();

    public void lap(String stage) {
      long now = System.nanoTime();
      laps.put(stage, Math.round((now - last) / 1e6) / 1000.0);
      last = now;
    }

    public Map<String, Double> laps() {
      return laps;
    }
  }

  /** Enough partitions to keep every core busy, and about streams-per-task ranges in each. */
  static int slices(int tasks, int streamsPerTask, int defaultParallelism) {
    if (tasks == 0) return 1;
    int byStreams = (tasks + streamsPerTask - 1) / streamsPerTask;
    return Math.max(1, Math.min(tasks, Math.max(byStreams, defaultParallelism)));
  }

  private static JavaSparkContext started(Future<JavaSparkContext> spark) throws IOException {
    try {
      return spark.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while Spark was starting");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) throw r;
      throw new IllegalStateException("Spark did not start: " + e.getCause().getMessage(), e.getCause());
    }
  }

  /**
   * A directory destination must exist (or be creatable) and be writable; a marker file is left in it for
   * {@link #checkShared}. A bucket must answer HEAD.
   */
  private static Path preflight(DestinationConfig destination, String runId) throws JobFailure {
    if (destination.kind() == StoreKind.S3) {
      try {
        new S3Destination(S3Clients.control(destination.endpoint()), destination).checkBucket();
      } catch (RuntimeException e) {
        throw new JobFailure("the destination bucket " + destination.describe() + " cannot be used: " + S3Errors.describe(e)
            + " (check ferry.destination.bucket, endpoint and credentials)");
      }
      return null;
    }
    Path root = Path.of(destination.path());
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
    return marker;
  }

  /** On a cluster, a directory destination must be the same shared directory on every executor: the marker shows. */
  private static void checkShared(Path marker, JavaSparkContext jsc) throws JobFailure {
    if (jsc.isLocal()) return; // local mode: the executors are this JVM, which just wrote the marker
    String markerPath = marker.toString();
    int probes = Math.max(1, jsc.defaultParallelism());
    jsc.setJobGroup("PREFLIGHT", "PREFLIGHT: is the destination shared with every executor?", true);
    List<String> blind = jsc.parallelize(IntStream.range(0, probes).boxed().toList(), probes)
        .filter(i -> !Files.exists(Path.of(markerPath)))
        .map(i -> java.net.InetAddress.getLocalHost().getHostName())
        .distinct()
        .collect();
    if (!blind.isEmpty()) {
      throw new JobFailure("ferry.destination.path = " + marker.getParent() + " is not visible from executors on " + blind
          + ": on a cluster the destination must be a shared mount (NFS, a shared volume) at the same path on every node");
    }
  }
}
