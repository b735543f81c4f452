package io.ferry.spark;

import io.ferry.commit.ObjectResult;
import io.ferry.commit.PartTally;
import io.ferry.config.BucketConfig;
import io.ferry.config.DirectoryConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.copy.Assignment;
import io.ferry.copy.CopyMethod;
import io.ferry.copy.Opening;
import io.ferry.copy.RangeResult;
import io.ferry.ledger.Ledger;
import io.ferry.plan.CopyPlan;
import io.ferry.plan.CopyTask;
import io.ferry.plan.RangeTask;
import io.ferry.report.RunInfo;
import io.ferry.report.RunSummary;
import io.ferry.report.StageTimes;
import io.ferry.report.Units;
import io.ferry.store.Destination;
import io.ferry.store.Failures;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.Retrier;
import io.ferry.store.Store;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.file.KeyPaths;
import io.ferry.store.s3.S3Store;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple2;

/**
 * The driver: config → LIST → PLAN → OPEN (objects written in parts) → COPY (executors) → COMMIT (executors) → REPORT.
 * Every step's logic lives in Spark-free packages; this class only wires them into Spark jobs.
 */
public final class MigrationJob {
  private static final DateTimeFormatter RUN_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private MigrationJob() {}

  public static String newRunId(Instant now) {
    return RUN_TIME.format(now) + "-" + String.format("%04x", ThreadLocalRandom.current().nextInt(0x10000));
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
    CopySettings settings = new CopySettings(config.source(), config.destination(), config.jobName(), runId, config.copy());
    StageTimes stages = new StageTimes();
    Path marker = preflight(settings, runId);
    stages.lap("preflight");
    Destination destination = ExecutorContext.destination(settings);
    try {
      out.printf("Ferry %s run %s: %s -> %s%n", config.jobName(), runId, config.source().describe(), config.destination().describe());
      CopyMethod method = CopyMethod.choose(config.source(), config.destination());
      Store source = ExecutorContext.source(settings);
      Planning.Result planning = Planning.plan(config, source, destination, method == CopyMethod.SERVER_SIDE_COPY);
      stages.lap("list+plan");
      JavaSparkContext jsc = started(spark);
      if (marker != null) checkShared(marker, jsc);
      stages.lap("spark");
      Ledger ledger = new Ledger(Ledger.directory(config.reportPath(), config.jobName(), jsc.hadoopConfiguration()), jsc.hadoopConfiguration());
      try (RunLock lock = RunLock.take(ledger, config.jobName(), runId)) {
        return run(config, settings, jsc, ledger, source, destination, planning, method, started, stages, out);
      }
    } finally {
      if (marker != null) Files.deleteIfExists(marker);
    }
  }

  private static RunSummary run(MigrationConfig config, CopySettings settings, JavaSparkContext jsc, Ledger ledger, Store source,
      Destination destination, Planning.Result planning, CopyMethod method, Instant started, StageTimes stages, PrintStream out)
      throws IOException {
    String runId = settings.runId();
    CopyPlan plan = planning.plan();
    out.printf("LIST  %d objects listed, %d selected, %d skipped unchanged, %d rejected%n",
        planning.listing().listed(), planning.listing().selected(), plan.skippedObjects(), planning.rejected().size());
    out.printf("PLAN  %d objects, %s in %d ranges (%d objects split), %d tasks; method %s%n", plan.objects(),
        Units.bytes(plan.bytes()), plan.ranges(), plan.splitObjects(), plan.tasks().size(), methodName(method));
    Retrier retrier = ExecutorContext.retrier(settings);
    Resumption resumed = Resumption.of(ledger.read(), plan, destination, retrier, runId);
    resumed.abortUnused(destination, retrier, out);
    for (StoreObject stray : planning.strays()) destination.removeStray(stray);
    if (!resumed.uploads().isEmpty()) {
      out.printf("RESUME %d objects opened by earlier runs, %d of their parts already copied (%s)%n", resumed.uploads().size(),
          resumed.ranges().size(), Units.bytes(resumed.ranges().stream().mapToLong(RangeResult::length).sum()));
    }
    Broadcast<SerializableConfiguration> hadoop = SerializableConfiguration.broadcast(jsc.sc());
    boolean committed = false;
    List<Upload> opened = new ArrayList<>(resumed.uploads().values());
    try {
      Map<StoreObject, Opening.Opened> opens = new HashMap<>(resumed.opens());
      List<RangeTask> toOpen = new ArrayList<>();
      for (CopyTask task : plan.tasks()) {
        RangeTask first = task.ranges().get(0);
        if (!first.wholeObject() && first.partNumber() == 1 && !opens.containsKey(first.object())) toOpen.add(first);
      }
      if (!toOpen.isEmpty()) {
        if (destination.capabilities().openSendsRequest() || source.reader().keepsChecksums()) {
          Map<StoreObject, Opening.Opened> fresh = openUploads(jsc, settings, toOpen, ledger.directory(), hadoop);
          fresh.values().forEach(o -> opened.add(o.upload()));
          opens.putAll(fresh);
        } else {
          // a destination whose opening sends no request opens here, where it costs nothing
          try (Ledger.Writer w = ledger.writer(runId + "-open-driver")) {
            for (RangeTask first : toOpen) {
              Upload upload = destination.open(first.object(), () -> ObjectMetadata.NONE);
              w.opened(LedgerRecords.opened(upload, destination.location(first.object()), first.partCount(), "", runId));
              opens.put(first.object(), new Opening.Opened(first.object(), upload, null, ""));
              opened.add(upload);
            }
          }
        }
        stages.lap("open");
      }
      List<Assignment> assignments = new ArrayList<>(plan.tasks().size());
      for (CopyTask task : plan.tasks()) {
        RangeTask first = task.ranges().get(0);
        if (first.wholeObject()) {
          assignments.add(Assignment.whole(task));
        } else if (!resumed.done(first)) {
          Opening.Opened open = opens.get(first.object());
          assignments.add(Assignment.part(task, open.upload(), open.expected()));
        }
      }

      int slices = slices(assignments.size(), config.copy().streamsPerTask(), jsc.defaultParallelism());
      jsc.setJobGroup("COPY", "COPY: " + plan.ranges() + " ranges of " + plan.objects() + " objects", true);
      JavaRDD<RangeResult> copied = jsc.parallelize(assignments, slices)
          .mapPartitions(new CopyRangesFunction(settings, ledger.directory(), hadoop));
      JavaRDD<RangeResult> ranges = (resumed.ranges().isEmpty() ? copied : copied.union(jsc.parallelize(resumed.ranges(), 1)))
          .persist(StorageLevel.MEMORY_AND_DISK_SER());
      long copyStart = System.currentTimeMillis();
      try (Console.Progress progress = Console.progress(jsc, "COPY", plan.bytes(), out)) {
        ranges.count();
      }
      long copyEnd = System.currentTimeMillis();
      stages.lap("copy");

      jsc.setJobGroup("COMMIT", "COMMIT: check, then complete or abort each object", true);
      JavaRDD<ObjectResult> objects = commit(ranges, plan, settings).persist(StorageLevel.MEMORY_AND_DISK_SER());
      objects.count();
      committed = true;
      keepOpenOnly(ledger, destination, objects, opened, resumed);
      stages.lap("commit");

      List<ObjectResult> rejected = planning.rejected().stream()
          .map(r -> ObjectResult.failed(r.object(), "", 0, 0, r.reason())).toList();
      RunInfo info = new RunInfo(config.jobName(), runId, config.source().describe(), config.destination().describe(), started,
          planning.listing().selected(), plan.skippedObjects(), plan.splitObjects(), planning.listing().pages(), copyStart,
          copyEnd, stages);
      RunSummary summary = Reports.write(jsc, config.reportPath(), info, ranges, objects.union(jsc.parallelize(rejected, 1)));
      ranges.unpersist();
      objects.unpersist();
      Console.printSummary(summary, out);
      return summary;
    } finally {
      hadoop.destroy();
      if (!committed && !opened.isEmpty()) {
        out.printf("KEPT  %d objects opened for writing (multipart uploads, temp files) and the parts they hold, for a rerun of"
            + " job %s to resume; 'ferry cleanup' removes them%n", opened.size(), config.jobName());
      }
    }
  }

  /**
   * After the commit, the ledger keeps only what is still open: the uploads of objects that failed and whose abort
   * failed too (they are checked with the destination); everything else was completed or aborted.
   */
  private static void keepOpenOnly(Ledger ledger, Destination destination, JavaRDD<ObjectResult> objects, List<Upload> opened,
      Resumption resumed) throws IOException {
    Ledger.State state = ledger.read();
    Map<String, Upload> byKey = new HashMap<>();
    opened.forEach(u -> byKey.put(u.object().key(), u));
    List<Ledger.Opened> stillOpen = new ArrayList<>();
    if (!byKey.isEmpty()) {
      for (ObjectResult failed : objects.filter(o -> o.status() == ObjectResult.Status.FAILED && o.parts() > 1).collect()) {
        Upload upload = byKey.get(failed.object().key());
        Ledger.Opened entry = upload == null ? null : state.opened().get(upload.object().key());
        if (entry != null && stillThere(destination, upload)) stillOpen.add(entry);
      }
    }
    stillOpen.addAll(resumed.unabortable());
    stillOpen.addAll(resumed.elsewhere());
    ledger.keepOnly(stillOpen, state);
  }

  static String methodName(CopyMethod method) {
    return method.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /**
   * COMMIT's input: an object copied in one range is committed where its range result lies, in the copy's own
   * partitions (no shuffle); only the parts of split objects are brought together by key first.
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
   * OPEN: each split object opened at the destination on the executors (for a bucket: a HEAD of the source for its
   * metadata, then CreateMultipartUpload), so a bucket with many large objects does not wait on the driver. If any
   * cannot be opened, those that were are aborted and the run stops.
   */
  private static Map<StoreObject, Opening.Opened> openUploads(JavaSparkContext jsc, CopySettings settings, List<RangeTask> split,
      String ledger, Broadcast<SerializableConfiguration> hadoop) throws IOException {
    jsc.setJobGroup("OPEN", "OPEN: " + split.size() + " objects written in parts", true);
    int slices = Math.max(1, Math.min(split.size(), jsc.defaultParallelism() * 4));
    Map<StoreObject, Opening.Opened> opened = new HashMap<>();
    List<String> errors = new ArrayList<>();
    for (Opening.Opened o : jsc.parallelize(split, slices).mapPartitions(new OpenFunction(settings, ledger, hadoop)).collect()) {
      if (o.ok()) {
        opened.put(o.object(), o);
      } else {
        errors.add(o.object().key() + ": " + o.error());
      }
    }
    if (!errors.isEmpty()) {
      abortUploads(settings, opened.values().stream().map(Opening.Opened::upload).toList(), null);
      throw new IOException("cannot open objects at " + settings.destination().describe() + ": "
          + String.join("; ", errors.subList(0, Math.min(3, errors.size()))));
    }
    return opened;
  }

  /** Whether an upload is still open; when the destination cannot say (it refuses the request), it is kept as open. */
  private static boolean stillThere(Destination destination, Upload upload) {
    try {
      return destination.partsStillThere(upload, new java.util.TreeMap<>()) != null;
    } catch (IOException | RuntimeException e) {
      return true;
    }
  }

  /** Objects could not be opened: those that were are aborted before the run stops. */
  private static void abortUploads(CopySettings settings, List<Upload> uploads, PrintStream out) {
    if (uploads.isEmpty()) return;
    Destination destination = ExecutorContext.destination(settings);
    Retrier retrier = ExecutorContext.retrier(settings);
    int failed = 0;
    for (Upload upload : uploads) {
      try {
        retrier.call(() -> {
          destination.abort(upload);
          return null;
        });
      } catch (IOException | RuntimeException ex) {
        failed++;
      }
    }
    if (out != null) {
      out.printf("ABORT %d objects opened for writing%s%n", uploads.size(), failed == 0 ? "" : " (" + failed + " aborts failed)");
    }
  }

  /** Enough partitions to keep every core busy, and about streams-per-task ranges in each. */
  static int slices(int tasks, int streamsPerTask, int defaultParallelism) {
    if (tasks == 0) return 1;
    int byStreams = (tasks + streamsPerTask - 1) / streamsPerTask;
    return Math.max(1, Math.min(tasks, Math.max(byStreams, defaultParallelism)));
  }

  static JavaSparkContext started(Future<JavaSparkContext> spark) throws IOException {
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
  private static Path preflight(CopySettings settings, String runId) throws JobFailure {
    if (settings.destination().store() instanceof BucketConfig bucket) {
      try {
        ((S3Store) ExecutorContext.store(bucket, settings)).checkBucket();
      } catch (IOException e) {
        throw new JobFailure("the destination bucket " + bucket.describe() + " cannot be used: " + Failures.describe(e)
            + " (check ferry.destination.bucket, endpoint and credentials)");
      }
      return null;
    }
    Path root = Path.of(((DirectoryConfig) settings.destination().store()).path());
    try {
      Files.createDirectories(root);
    } catch (IOException e) {
      throw new JobFailure("ferry.destination.path = " + root + " cannot be created: " + Failures.describe(e));
    }
    Path marker = root.resolve(KeyPaths.markerName(settings.job()));
    try {
      Files.writeString(marker, runId);
    } catch (IOException e) {
      throw new JobFailure("ferry.destination.path = " + root + " is not writable: " + Failures.describe(e));
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
