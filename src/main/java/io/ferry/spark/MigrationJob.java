package io.ferry.spark;

import io.ferry.commit.ObjectResult;
import io.ferry.commit.PartTally;
import io.ferry.config.ArchivedConfig;
import io.ferry.config.BucketConfig;
import io.ferry.config.CopyConfig;
import io.ferry.config.DirectoryConfig;
import io.ferry.config.LimitsConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.config.Overlaps;
import io.ferry.copy.Assignment;
import io.ferry.copy.CopyMethod;
import io.ferry.copy.RangeResult;
import io.ferry.ledger.Ledger;
import io.ferry.ledger.LedgerRecords;
import io.ferry.ledger.Resumption;
import io.ferry.ledger.RunLock;
import io.ferry.plan.CopyPlanner;
import io.ferry.plan.CopyTask;
import io.ferry.plan.Decision;
import io.ferry.plan.Lanes;
import io.ferry.plan.PlanTotals;
import io.ferry.plan.RangeTask;
import io.ferry.report.ReportWriter;
import io.ferry.report.RunInfo;
import io.ferry.report.RunSummary;
import io.ferry.report.StageTimes;
import io.ferry.report.Units;
import io.ferry.store.Destination;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.checksums.Digests;
import io.ferry.store.file.KeyPaths;
import io.ferry.store.retry.Failures;
import io.ferry.store.retry.Retrier;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.io.Serializable;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
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
   * A run on a Spark context that may still be starting: the preflight runs meanwhile; the stage "spark" is what is
   * left of its start after it (and, on a cluster, the shared-directory check, which needs the executors).
   */
  public static RunSummary run(MigrationConfig config, Future<JavaSparkContext> spark, PrintStream out) throws JobFailure, IOException {
    Instant started = Instant.now();
    String runId = newRunId(started);
    CopySettings settings = new CopySettings(config.source(), config.destination(), config.jobName(), runId, config.copy());
    StageTimes stages = new StageTimes();
    Overlaps.recheck(config); // links may have changed since the job file was read: before anything is written
    Path marker = preflight(settings, runId);
    stages.lap("preflight");
    try {
      out.printf("Ferry %s run %s: %s -> %s%n", config.jobName(), runId, config.source().describe(), config.destination().describe());
      JavaSparkContext jsc = started(spark);
      if (marker != null) checkShared(marker, jsc);
      stages.lap("spark");
      Ledger ledger = new Ledger(Ledger.directory(config.reportPath(), config.jobName(), jsc.hadoopConfiguration()),
          jsc.hadoopConfiguration());
      try (RunLock lock = lock(ledger, jsc.hadoopConfiguration(), config.jobName(), runId)) {
        FerryPlugin.limit(config.limits());
        if (!config.limits().equals(LimitsConfig.NONE)) FerryPlugin.awaitShares(jsc.sc(), 3_000);
        return run(config, settings, jsc, ledger, lock, started, stages, out);
      }
    } finally {
      FerryPlugin.limit(LimitsConfig.NONE);
      if (marker != null) Files.deleteIfExists(marker);
    }
  }

  /** The job's run lock, or the failure that another run holds it. */
  static RunLock lock(Ledger ledger, Configuration hadoop, String job, String runId) throws JobFailure, IOException {
    try {
      return RunLock.take(ledger.directory(), hadoop, job, runId);
    } catch (RunLock.Taken e) {
      throw new JobFailure(e.getMessage());
    }
  }

  /** Before anything that destroys: the run must still hold its lock (another run took it for a crashed one). */
  private static void stillHeld(RunLock lock, String job) throws JobFailure {
    if (!lock.held()) {
      throw new JobFailure("another run of job " + job + " took this run's lock (this run's note was not renewed in time):"
          + " this run stops before its cut-over pass and its ledger's cleanup");
    }
  }

  private static RunSummary run(MigrationConfig config, CopySettings settings, JavaSparkContext jsc, Ledger ledger, RunLock lock,
      Instant started, StageTimes stages, PrintStream out) throws JobFailure, IOException {
    CopyMethod method = CopyMethod.choose(config.source(), config.destination());
    Ledger.State earlier = ledger.read();
    try (Held held = new Held()) {
      Broadcast<SerializableConfiguration> hadoop = held.broadcast(SerializableConfiguration.broadcast(jsc.sc()));
      RestoreFunction.Context restore = settings.source().archived().policy() != ArchivedConfig.Policy.RESTORE ? null
          : new RestoreFunction.Context(ledger.directory(), hadoop, held.broadcast(jsc.broadcast(new HashMap<>(earlier.restores()))),
          jsc.sc().longAccumulator("restores requested"));
      boolean versions = config.source().store() instanceof BucketConfig b && b.versions();
      Optional<String> checkpointsBefore = jsc.getCheckpointDir();
      Map<String, CopyPlanner.Kept> kept = config.plan().autoPartSize() ? kept(earlier, ExecutorContext.destination(settings)) : Map.of();
      EarlyCopies early = !Planning.mayCopyWhileListing(config, earlier.isEmpty()) ? null : new EarlyCopies(jsc, config, settings,
          ledger.directory(), hadoop, held.broadcast(jsc.broadcast(Resumption.of(earlier, ExecutorContext.destination(settings)))), held,
          out);
      boolean checkpointed = versions || early != null;
      if (early != null) jsc.setCheckpointDir(Planning.checkpoints(jsc, config, settings));
      try (Planning.Planned planned = Planning.plan(config, settings, jsc, method == CopyMethod.SERVER_SIDE_COPY, restore,
          versions ? Planning.checkpoints(jsc, config, settings) : null, kept, LedgerRecords.replays(earlier), stages, early, out)) {
        try {
          return runPlanned(config, settings, jsc, ledger, lock, started, stages, out, method, earlier, held, hadoop, restore, planned,
              early);
        } finally {
          if (early != null) early.close(); // before the plan's listings are dropped: its copies read them
        }
      } finally {
        if (early != null) early.close(); // the listing failed
        if (checkpointed) dropCheckpoints(jsc, config, settings);
        // a shared context's own folder back (an earlier run's is gone: setting it again would make it anew)
        if (checkpointed && checkpointsBefore.isPresent() && !checkpointsBefore.get().contains("/.checkpoints/")) {
          jsc.setCheckpointDir(checkpointsBefore.get());
        }
      }
    }
  }

  /**
   * The objects earlier runs left open at this destination, by relative key, with their part size: under
   * {@code plan.part-size = auto} they keep it, so that they resume in their own parts whatever auto chooses now.
   */
  static Map<String, CopyPlanner.Kept> kept(Ledger.State earlier, Destination destination) {
    Map<String, CopyPlanner.Kept> kept = new HashMap<>();
    for (Ledger.Opened o : Resumption.of(earlier, destination).here().values()) {
      kept.put(o.relativeKey(), new CopyPlanner.Kept(LedgerRecords.object(o), o.partSize()));
    }
    return kept;
  }

  /** The run past its plan: OPEN, COPY, COMMIT, DELETE, REPORT. */
  private static RunSummary runPlanned(MigrationConfig config, CopySettings settings, JavaSparkContext jsc, Ledger ledger, RunLock lock,
      Instant started, StageTimes stages, PrintStream out, CopyMethod method, Ledger.State earlier, Held held,
      Broadcast<SerializableConfiguration> hadoop, RestoreFunction.Context restore, Planning.Planned planned, EarlyCopies early)
      throws JobFailure, IOException {
    PlanTotals plan = planned.totals();
    PlanTotals rest = planned.rest(); // what the plan's own tasks copy: the early copies took the rest
    stages.lap("plan");
    printPlan(planned, method, config.copy(), out);
    JavaRDD<ObjectResult> restoring = held.persist(planned.restoring());
    if (restore != null) printRestores(settings, plan, restoring, restore, out);
    // the early copies done before anything of earlier runs is taken over: none of it may touch what they write
    EarlyCopies.Done earlyDone = early == null ? EarlyCopies.Done.NONE : early.finish(); // the first failure of any is thrown
    if (earlyDone.objectsCopied() > 0) {
      out.printf("EARLY %d objects (%s) copied while the listing went on, after %d of its rounds; %d of them failed%n",
          earlyDone.objectsCopied(), Units.bytes(earlyDone.bytes()), earlyDone.rounds(), earlyDone.failed());
    }
    Destination destination = ExecutorContext.destination(settings);
    Resumption resumption = Resumption.of(earlier, destination);
    List<Ledger.Opened> stillOpen = takeOver(planned, resumption, settings, out);

    Broadcast<Resumption> earlierRuns = held.broadcast(jsc.broadcast(resumption));
    if (planned.histories() != null) recordWriting(jsc, planned.tasks(), settings, ledger.directory(), hadoop, 0);
    OpenResult open = open(jsc, settings, planned.tasks(), rest.splitObjects(), ledger.directory(), hadoop, earlierRuns, held, 0, out);
    if (plan.splitObjects() > 0) stages.lap("open");
    boolean committed = false;
    try {
      boolean replay = planned.histories() != null;
      // the progress counts on from what the copies made while listing did, to the whole plan
      CopyCounters counters = earlyDone.copied() != null ? early.counters() : new CopyCounters(jsc);
      Copied copied = copy(jsc, config, settings, earlyDone.copied() != null ? plan : rest, open, ledger.directory(), hadoop, held, replay,
          counters, out);
      stages.lap("copy");

      jsc.setJobGroup("COMMIT", "COMMIT: check, then complete or abort each object", true);
      JavaRDD<ObjectResult> objects = held.persist(commit(copied.ranges(), rest.splitObjects(), rest.objects(), settings));
      if (earlyDone.copied() != null) {
        copied = earlyDone.copied().and(copied);
        objects = objects.union(earlyDone.objects());
      }
      if (replay) {
        objects.checkpoint(); // a generation's writes are never done again: after later ones, they would go on top of them
        Replayed replayed = replayRest(jsc, config, settings, planned, new Replayed(copied, objects), ledger.directory(), hadoop,
            earlierRuns, held, method == CopyMethod.SERVER_SIDE_COPY, out);
        copied = replayed.copied();
        objects = replayed.objects();
      }
      if (planned.hardLinks() != null) {
        jsc.setJobGroup("LINK", "LINK: each file's other names made hard links to its copy", true);
        objects = held.persist(objects.union(HardLinks.link(planned.hardLinks(), objects, settings)));
      }
      Failed failed = Failed.of(objects);
      committed = true;
      stillHeld(lock, config.jobName());
      keepOpenOnly(ledger, destination, failed.inParts(), stillOpen);
      stages.lap("commit");

      stillHeld(lock, config.jobName());
      String runDirectory = new ReportWriter(jsc.hadoopConfiguration(), config.reportPath(), config.jobName(),
          settings.runId()).qualifiedRunDirectory();
      if (config.destination().cutOver().enabled()) Overlaps.recheck(config); // and before anything is deleted
      RunSummary.Deletions deletions = CutOverStep.run(jsc, settings, planned, failed.count(), runDirectory, out);
      if (deletions != null && deletions.ran()) stages.lap("delete");

      RunSummary summary = report(jsc, config, settings.runId(), started, planned, copied, objects.union(restoring), stages, deletions);
      Console.printSummary(summary, out);
      return summary;
    } finally {
      if (!committed) printKept(open, config.jobName(), out);
    }
  }

  /** After a copy that did not reach its commit: what it opened stays, for a rerun to resume. */
  static void printKept(OpenResult open, String job, PrintStream out) {
    if (open.opened() == 0) return;
    out.printf("KEPT  %d objects opened for writing (multipart uploads, temp files) and the parts they hold, for a rerun of job %s"
        + " to resume; 'ferry cleanup' removes them%n", open.opened(), job);
  }

  /** What a replay's generations copied and committed, so far. */
  private record Replayed(Copied copied, JavaRDD<ObjectResult> objects) {}

  /**
   * The rest of a replay ({@code source.versions = all} into a bucket), after its first generation's objects: each
   * generation's delete markers, then the next generation's objects (the next version of each key), and so on, so
   * that each key's versions are written oldest first. A key stops at its first version that failed: nothing after
   * it is written, and a rerun replays from there.
   */
  private static Replayed replayRest(JavaSparkContext jsc, MigrationConfig config, CopySettings settings, Planning.Planned planned,
      Replayed first, String ledger, Broadcast<SerializableConfiguration> hadoop, Broadcast<Resumption> earlier, Held held,
      boolean serverSide, PrintStream out) throws JobFailure, IOException {
    JavaRDD<List<StoreObject>> histories = planned.histories();
    int generations = histories.map(List::size).fold(0, Math::max);
    JavaRDD<ObjectResult> objects = first.objects();
    JavaRDD<RangeResult> ranges = first.copied().ranges();
    long end = first.copied().endMillis();
    Set<String> stopped = new HashSet<>(failedKeys(objects));
    recordWritten(jsc, objects, settings, ledger, hadoop, 0);
    Destination destination = ExecutorContext.destination(settings);
    for (int g = 0; g < generations; g++) {
      int gen = g;
      // versioning suspended meanwhile would make each write replace the key's null version, and each marker delete it
      if (!destination.keepsVersions()) {
        throw new JobFailure("the destination " + settings.destination().describe() + " no longer keeps versions (its versioning"
            + " was suspended during the run): its histories are written up to generation " + gen + "; enable versioning and run"
            + " again");
      }
      Broadcast<Set<String>> stop = held.broadcast(jsc.broadcast(new HashSet<>(stopped)));
      if (g > 0) {
        JavaRDD<CopyTask> tasks = held.persist(Planning.generation(histories, gen).filter(o -> !stop.value().contains(o.relativeKey()))
            .mapPartitionsWithIndex(new Planning.PlanFunction(config.plan(), ExecutorContext.destination(settings).capabilities(),
                serverSide, gen), true));
        PlanTotals totals = tasks.map(PlanTotals::of).fold(PlanTotals.NONE, PlanTotals::plus);
        if (totals.objects() > 0) {
          out.printf("VERSIONS generation %d of %d: %d versions, %s%n", gen + 1, generations, totals.objects(),
              Units.bytes(totals.bytes()));
          recordWriting(jsc, tasks, settings, ledger, hadoop, 2 * gen);
          OpenResult open = open(jsc, settings, tasks, totals.splitObjects(), ledger, hadoop, earlier, held, gen, out);
          Copied copied = copy(jsc, config, settings, totals, open, ledger, hadoop, held, true, new CopyCounters(jsc), out);
          jsc.setJobGroup("COMMIT", "COMMIT: generation " + (gen + 1) + " of the versions", true);
          JavaRDD<ObjectResult> committed = held.persist(commit(copied.ranges(), totals.splitObjects(), totals.objects(), settings));
          committed.checkpoint();
          stopped.addAll(failedKeys(committed));
          recordWritten(jsc, committed, settings, ledger, hadoop, 2 * gen);
          objects = objects.union(committed);
          ranges = ranges.union(copied.ranges());
          end = copied.endMillis();
        }
      }
      Broadcast<Set<String>> stopMarks = held.broadcast(jsc.broadcast(new HashSet<>(stopped)));
      JavaRDD<ObjectResult> marked = held.persist(histories.filter(h -> h.size() > gen && h.get(gen).isDeleteMarker()
          && !stopMarks.value().contains(h.get(gen).relativeKey())).map(h -> h.get(gen)).mapPartitions(new MarkFunction(settings)));
      marked.checkpoint();
      jsc.setJobGroup("COMMIT", "COMMIT: delete markers of generation " + (gen + 1), true);
      if (marked.count() > 0) {
        stopped.addAll(failedKeys(marked));
        recordWritten(jsc, marked, settings, ledger, hadoop, 2 * gen + 1);
        objects = objects.union(marked);
      }
    }
    return new Replayed(new Copied(ranges, first.copied().startMillis(), end), objects);
  }

  /**
   * The versions a replay's generation wrote, recorded by the source versions they copy ({@link WrittenFunction}), before
   * the next generation writes; {@code step} tells the generation's objects and markers apart in the ledger's names.
   */
  private static void recordWritten(JavaSparkContext jsc, JavaRDD<ObjectResult> committed, CopySettings settings, String ledger,
      Broadcast<SerializableConfiguration> hadoop, int step) {
    jsc.setJobGroup("COMMIT", "COMMIT: the versions written, recorded by the source versions they copy", true);
    committed.filter(o -> o.status() == ObjectResult.Status.COPIED && o.object().isVersion())
        .foreachPartition(new ReplayRecords.Written(settings, ledger, hadoop, 3 * step + 1));
  }

  /** The source versions a replay's generation is about to write, recorded before it writes them ({@link ReplayRecords}). */
  private static void recordWriting(JavaSparkContext jsc, JavaRDD<CopyTask> tasks, CopySettings settings, String ledger,
      Broadcast<SerializableConfiguration> hadoop, int step) {
    jsc.setJobGroup("COPY", "COPY: the versions about to be written, recorded", true);
    tasks.flatMap(t -> t.ranges().stream().filter(r -> r.partNumber() == 1 && r.object().isVersion()).map(RangeTask::object).iterator())
        .foreachPartition(new ReplayRecords.Writing(settings, ledger, hadoop, 3 * step));
  }

  /** What a replay or copies made while listing kept while the run went on ({@link Planning#checkpoints}). */
  private static void dropCheckpoints(JavaSparkContext jsc, MigrationConfig config, CopySettings settings) throws IOException {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(Planning.checkpoints(jsc, config, settings));
    FileSystem fs = dir.getFileSystem(jsc.hadoopConfiguration());
    if (fs.exists(dir)) fs.delete(dir, true);
  }

  /** The objects that failed: how many, and the keys of those written in parts (their uploads may stay open). */
  record Failed(long count, List<String> inParts) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** One pass over the commit's results (a pass deserializes each of them again). */
    static Failed of(JavaRDD<ObjectResult> objects) {
      return objects.mapPartitions(rows -> {
        long count = 0;
        List<String> inParts = new ArrayList<>();
        while (rows.hasNext()) {
          ObjectResult o = rows.next();
          if (o.status() != ObjectResult.Status.FAILED) continue;
          count++;
          if (o.parts() > 1) inParts.add(o.object().relativeKey());
        }
        return List.of(new Failed(count, inParts)).iterator();
      }).fold(new Failed(0, List.of()), Failed::plus);
    }

    Failed plus(Failed other) {
      List<String> both = new ArrayList<>(inParts);
      both.addAll(other.inParts);
      return new Failed(count + other.count, both);
    }
  }

  private static List<String> failedKeys(JavaRDD<ObjectResult> objects) {
    return objects.filter(o -> o.status() == ObjectResult.Status.FAILED).map(o -> o.object().relativeKey()).collect();
  }

  /** What a run holds on the cluster until its end: broadcasts (destroyed) and persisted datasets (unpersisted). */
  static final class Held implements AutoCloseable {
    // the early copies' thread adds to them too
    private final List<Broadcast<?>> broadcasts = Collections.synchronizedList(new ArrayList<>());
    private final List<JavaRDD<?>> persisted = Collections.synchronizedList(new ArrayList<>());

    <T> Broadcast<T> broadcast(Broadcast<T> b) {
      broadcasts.add(b);
      return b;
    }

    <T> JavaRDD<T> persist(JavaRDD<T> rdd) {
      persisted.add(rdd);
      return rdd.persist(StorageLevel.MEMORY_AND_DISK_SER());
    }

    @Override
    public void close() {
      synchronized (broadcasts) {
        broadcasts.forEach(Broadcast::destroy);
      }
      synchronized (persisted) {
        persisted.forEach(JavaRDD::unpersist);
      }
    }
  }

  private static void printPlan(Planning.Planned planned, CopyMethod method, CopyConfig copy, PrintStream out) {
    PlanTotals plan = planned.totals();
    out.printf("LIST  %d objects listed, %d selected, %d skipped unchanged, %d rejected%s%s%s%n", planned.listing().listed(),
        planned.listing().selected() - plan.filtered(), plan.unchanged(), plan.rejected(),
        plan.notCopied() == 0 ? "" : ", " + plan.notCopied() + " symbolic links not copied",
        plan.archived() == 0 ? "" : ", " + plan.archived() + " archived at the source",
        planned.missingCount() == 0 ? "" : ", " + planned.missingCount() + " named by the manifest and missing at the source");
    out.printf("PLAN  %d objects, %s in %d ranges (%d objects split), %d tasks; method %s%n", plan.objects(),
        Units.bytes(plan.bytes()), plan.ranges(), plan.splitObjects(), plan.tasks(), methodName(method));
    String versions = planned.replayLine();
    if (versions != null) out.println(versions);
    if (planned.partSizeLine() != null) out.println("PART SIZE " + planned.partSizeLine());
    String streams = autoStreams(copy);
    if (streams != null) out.println("STREAMS " + streams);
    if (!Digests.fallback().isEmpty()) out.println("DIGESTS the JDK's on the driver: " + Digests.fallback());
  }

  /** What {@code copy.streams-per-task = auto} starts with and how it goes on; null for a fixed count. */
  static String autoStreams(CopyConfig copy) {
    if (!copy.autoStreams()) return null;
    int slots = ExecutorContext.slots();
    return String.format(Locale.ROOT, "auto: each executor starts at %d streams per task slot (%d with %d slots), then keeps the count"
        + " past which its aggregate rate stops rising, between %d and %d per slot", copy.streamsPerTask(), copy.streamsPerTask() * slots,
        slots, CopyConfig.AUTO_MIN, copy.maxStreamsPerTask());
  }

  /**
   * What the run takes over from earlier ones, before it opens anything: their uploads the plan does not resume and
   * those they lost are aborted, their strays removed. Returns the ledger's entries that stay open (aborts that failed,
   * uploads at another destination).
   */
  private static List<Ledger.Opened> takeOver(Planning.Planned planned, Resumption resumption, CopySettings settings, PrintStream out)
      throws IOException {
    Destination destination = ExecutorContext.destination(settings);
    Retrier retrier = ExecutorContext.retrier(settings);
    Set<String> matched = resumption.isEmpty() ? Set.of() : new HashSet<>(planned.tasks().filter(t -> {
      RangeTask first = t.ranges().get(0);
      return !first.wholeObject() && first.partNumber() == 1 && resumption.matches(first);
    }).map(t -> t.ranges().get(0).object().relativeKey()).collect());
    List<Ledger.Opened> stillOpen = new ArrayList<>(resumption.abortUnused(matched, destination, retrier, out));
    resumption.abortLost(destination, retrier, out);
    stillOpen.addAll(resumption.elsewhere());
    Set<String> staged = new HashSet<>(); // temp files of uploads the ledger names: resumed, or aborted above
    for (Ledger.Opened entry : resumption.here().values()) {
      staged.add(destination.stagedAt(new Upload(LedgerRecords.object(entry), entry.uploadId())));
    }
    for (StoreObject stray : planned.strays()) if (!staged.contains(stray.relativeKey())) destination.removeStray(stray);
    return stillOpen;
  }

  /** OPEN's outcome: every task with what it copies (and the ranges resumed), and what opening did. */
  record OpenResult(JavaRDD<AssignFunction.Assigned> assigned, OpenCounts totals, long[] weights) {
    long opened() {
      return totals.fresh() + totals.reused();
    }
  }

  /**
   * OPEN: the objects written in parts opened (or their earlier uploads taken over) where their first part is planned.
   * When any cannot be opened, those this run opened are aborted and the run stops.
   */
  static OpenResult open(JavaSparkContext jsc, CopySettings settings, JavaRDD<CopyTask> tasks, long splitObjects, String ledger,
      Broadcast<SerializableConfiguration> hadoop, Broadcast<Resumption> earlier, Held held, int generation, PrintStream out)
      throws IOException {
    jsc.setJobGroup("OPEN", "OPEN: " + splitObjects + " objects written in parts", true);
    JavaRDD<AssignFunction.Assigned> assigned = held.persist(tasks.mapPartitions(new AssignFunction(settings, ledger, hadoop,
        earlier, generation)));
    // what OPEN did, a partition at a time: the partitions' weights are where the copy's lanes start (Lanes)
    List<Tuple2<Integer, OpenCounts>> perPartition = assigned.mapPartitionsWithIndex((p, it) -> {
      OpenCounts o = OpenCounts.NONE;
      while (it.hasNext()) o = o.plus(OpenCounts.of(it.next()));
      return List.of(new Tuple2<>(p, o)).iterator();
    }, true).collect();
    OpenCounts opens = OpenCounts.NONE;
    long[] weights = new long[assigned.getNumPartitions()];
    for (Tuple2<Integer, OpenCounts> p : perPartition) {
      opens = opens.plus(p._2());
      weights[p._1()] = p._2().weight();
    }
    if (opens.failed() > 0) {
      List<String> errors = assigned.filter(a -> a.opened() != null && !a.opened().ok())
          .map(a -> a.opened().object().key() + ": " + a.opened().error()).take(3);
      abortFresh(settings, assigned, out);
      if (opens.reused() > 0) {
        out.printf("KEPT  %d objects opened by earlier runs and the parts they hold, for a rerun of job %s to resume; 'ferry"
            + " cleanup' removes them%n", opens.reused(), settings.job());
      }
      throw new IOException("cannot open " + opens.failed() + " objects at " + settings.destination().describe() + ": "
          + String.join("; ", errors));
    }
    if (opens.reused() > 0) {
      out.printf("RESUME %d objects opened by earlier runs, %d of their parts already copied (%s)%n", opens.reused(),
          opens.resumedRanges(), Units.bytes(opens.resumedBytes()));
    }
    return new OpenResult(assigned, opens, weights);
  }

  /** COPY's outcome: every range's result (the resumed ones too) and when the copy ran. */
  record Copied(JavaRDD<RangeResult> ranges, long startMillis, long endMillis) {
    /** These and {@code other}'s ranges, over both copies' time. */
    Copied and(Copied other) {
      return new Copied(ranges.union(other.ranges), Math.min(startMillis, other.startMillis), Math.max(endMillis, other.endMillis));
    }
  }

  /** COPY: the assignments spread over lanes of equal weight, each range copied by the executors, with live progress. */
  /**
   * @param plan what the progress line counts to (with {@code counters}: the copies made while listing, when they ran)
   * @param keep the results are checkpointed (a replay's generation): a copy is never done again once later ones ran
   * @param out gets the copy's progress lines; null for none
   */
  static Copied copy(JavaSparkContext jsc, MigrationConfig config, CopySettings settings, PlanTotals plan, OpenResult open,
      String ledger, Broadcast<SerializableConfiguration> hadoop, Held held, boolean keep, CopyCounters counters, PrintStream out) {
    OpenCounts opens = open.totals();
    JavaRDD<Assignment> assignments = open.assigned().filter(a -> a.assignment() != null).map(AssignFunction.Assigned::assignment);
    // tuned streams: lanes hold as many ranges as a task's most streams, so the gate, not the lane, bounds them
    int lanes = Lanes.count(opens.assignments(), config.copy().threadsPerTask(), jsc.defaultParallelism());
    jsc.setJobGroup("COPY", "COPY: " + plan.ranges() + " ranges of " + plan.objects() + " objects", true);
    JavaRDD<RangeResult> copied = inLanes(assignments, held.broadcast(jsc.broadcast(Lanes.starts(open.weights()))), lanes)
        .mapPartitions(new CopyRangesFunction(settings, ledger, hadoop, counters));
    JavaRDD<RangeResult> ranges = held.persist(opens.resumedRanges() == 0 ? copied
        : copied.union(open.assigned().filter(a -> a.resumed() != null).map(AssignFunction.Assigned::resumed)));
    if (keep) ranges.checkpoint();
    long start = System.currentTimeMillis();
    if (out == null) {
      ranges.count();
      return new Copied(ranges, start, System.currentTimeMillis());
    }
    try (Live live = Live.watch(jsc, counters.all());
        Console.Progress progress = Console.copying(live, counters, plan.bytes() - opens.resumedBytes(),
            plan.ranges() - opens.resumedRanges(), config.report().progressInterval(), live.value(counters.ranges) > 0, out)) {
      ranges.count();
    }
    return new Copied(ranges, start, System.currentTimeMillis());
  }

  /** REPORT: the datasets and the summary, the objects set aside and missing among them. */
  private static RunSummary report(JavaSparkContext jsc, MigrationConfig config, String runId, Instant started, Planning.Planned planned,
      Copied copied, JavaRDD<ObjectResult> objects, StageTimes stages, RunSummary.Deletions deletions) throws IOException {
    PlanTotals plan = planned.totals();
    JavaRDD<ObjectResult> setAside = planned.setAside().filter(d -> d.kind() == Decision.Kind.REJECTED || d.kind() == Decision.Kind.ARCHIVED
        || d.kind() == Decision.Kind.NOT_COPIED).map(d -> d.kind() == Decision.Kind.NOT_COPIED
        ? new ObjectResult(d.object(), "", 0, 0, ObjectResult.Status.NOT_COPIED, d.reason(), "", "")
        : ObjectResult.failed(d.object(), "", 0, 0, d.reason()));
    JavaRDD<ObjectResult> missing = planned.missing().map(o -> new ObjectResult(o, "", 0, 0, ObjectResult.Status.MISSING,
        "named by the manifest; the source no longer holds it", "", ""));
    RunInfo info = new RunInfo(config.jobName(), runId, config.source().describe(), config.destination().describe(), started,
        planned.listing().selected() - plan.filtered(), plan.unchanged(), plan.splitObjects(), planned.listing().pages(),
        copied.startMillis(), copied.endMillis(), stages, deletions, config.limits().bytesPerSecond() / 1e6);
    return Reports.write(jsc, config.report(), info, copied.ranges(), objects.union(setAside).union(missing));
  }

  /**
   * What the RESTORE step did (in the plan, on the executors, before anything is copied, so that the store starts on
   * the restores while the rest copies): restores requested now, objects found readable and copied by this run, the
   * rest RESTORING rows (FAILED where the request failed).
   */
  private static void printRestores(CopySettings settings, PlanTotals plan, JavaRDD<ObjectResult> restoring,
      RestoreFunction.Context restore, PrintStream out) {
    if (plan.archived() == 0) return;
    long failed = restoring.filter(o -> o.status() == ObjectResult.Status.FAILED).count();
    long pending = restoring.count() - failed;
    out.printf("RESTORE %d archived objects at the source: %d restores requested now (%s, %d days), %d restoring, %d restored and"
        + " copied by this run%s%n", plan.archived(), restore.requested().value(), settings.source().archived().tier(),
        settings.source().archived().days(), pending, plan.archived() - pending - failed, failed == 0 ? ""
        : "; " + failed + " could not be requested");
  }

  /** What the OPEN step did, added up over its partitions. */
  record OpenCounts(long assignments, long weight, long fresh, long reused, long failed, long resumedRanges, long resumedBytes)
      implements Serializable {
    static final OpenCounts NONE = new OpenCounts(0, 0, 0, 0, 0, 0, 0);

    static OpenCounts of(AssignFunction.Assigned a) {
      if (a.assignment() != null) return new OpenCounts(1, MigrationJob.weight(a.assignment()), 0, 0, 0, 0, 0);
      if (a.resumed() != null) return new OpenCounts(0, 0, 0, 0, 0, 1, a.resumed().length());
      if (!a.opened().ok()) return new OpenCounts(0, 0, 0, 0, 1, 0, 0);
      return a.reused() ? new OpenCounts(0, 0, 0, 1, 0, 0, 0) : new OpenCounts(0, 0, 1, 0, 0, 0, 0);
    }

    OpenCounts plus(OpenCounts o) {
      return new OpenCounts(assignments + o.assignments, weight + o.weight, fresh + o.fresh, reused + o.reused, failed + o.failed,
          resumedRanges + o.resumedRanges, resumedBytes + o.resumedBytes);
    }
  }

  /** Objects could not be opened: those this run opened are aborted (on the executors) before it stops. */
  private static void abortFresh(CopySettings settings, JavaRDD<AssignFunction.Assigned> assigned, PrintStream out) {
    long[] counts = assigned.filter(a -> a.opened() != null && a.opened().ok() && !a.reused()).mapPartitions(opened -> {
      Destination destination = ExecutorContext.destination(settings);
      Retrier retrier = ExecutorContext.retrier(settings);
      long aborted = 0, failed = 0;
      while (opened.hasNext()) {
        Upload upload = opened.next().opened().upload();
        try {
          retrier.run(() -> destination.abort(upload));
          aborted++;
        } catch (IOException | RuntimeException ex) {
          failed++;
        }
      }
      return List.of(new long[] {aborted, failed}).iterator();
    }).fold(new long[2], (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
    if (counts[0] + counts[1] > 0) {
      out.printf("ABORT %d objects opened for writing%s%n", counts[0] + counts[1], counts[1] == 0 ? "" : " (" + counts[1]
          + " aborts failed)");
    }
  }

  /**
   * After the commit, the ledger keeps only what is still open: the uploads of objects that failed and whose abort
   * failed too (they are checked with the destination), and {@code stillOpen}; everything else was completed or
   * aborted.
   */
  private static void keepOpenOnly(Ledger ledger, Destination destination, List<String> failedInParts, List<Ledger.Opened> stillOpen)
      throws IOException {
    Ledger.State state = ledger.read();
    List<Ledger.Opened> keep = new ArrayList<>(stillOpen);
    for (String key : failedInParts) {
      Ledger.Opened entry = state.opened().get(key);
      if (entry != null && stillThere(destination, new Upload(LedgerRecords.object(entry), entry.uploadId()))) keep.add(entry);
    }
    ledger.keepOnly(keep, state);
  }

  static String methodName(CopyMethod method) {
    return method.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * COMMIT's input: an object copied in one range is committed where its range result lies, in the copy's own
   * partitions (no shuffle); only the parts of split objects are brought together by key first.
   */
  static JavaRDD<ObjectResult> commit(JavaRDD<RangeResult> ranges, long splitObjects, long objects, CopySettings settings) {
    JavaRDD<ObjectResult> whole = ranges.filter(r -> r.partCount() == 1).map(PartTally::of)
        .mapPartitions(new CommitFunction(settings));
    if (splitObjects == 0) return whole;
    JavaRDD<ObjectResult> split = ranges.filter(r -> r.partCount() > 1)
        .mapToPair(r -> new Tuple2<>(r.object().relativeKey(), PartTally.of(r))) // versions of a key go to names of their own
        .reduceByKey(PartTally::merge)
        .values()
        .mapPartitions(new CommitFunction(settings));
    return splitObjects == objects ? split : whole.union(split);
  }

  /** Whether an upload is still open; when the destination cannot say (it refuses the request), it is kept as open. */
  private static boolean stillThere(Destination destination, Upload upload) {
    try {
      return destination.partsStillThere(upload, new TreeMap<>()) != null;
    } catch (IOException | RuntimeException e) {
      return true;
    }
  }

  /**
   * The assignments spread over {@code lanes} partitions of equal weight ({@link Lanes}), each keyed by its lane from
   * where its partition starts ({@code starts}, the running sums of the partitions' weights) and the weights before it.
   */
  static JavaRDD<Assignment> inLanes(JavaRDD<Assignment> assignments, Broadcast<long[]> starts, int lanes) {
    int partitions = assignments.getNumPartitions();
    // lane numbers below the partition count: HashPartitioner sends key k to partition k
    return assignments.mapPartitionsWithIndex((p, it) -> new Iterator<Tuple2<Integer, Assignment>>() {
      private final long total = starts.value()[partitions];
      private long at = starts.value()[p];

      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public Tuple2<Integer, Assignment> next() {
        Assignment a = it.next();
        long w = weight(a);
        int lane = Lanes.lane(at, w, total, lanes);
        at += w;
        return new Tuple2<>(lane, a);
      }
    }, false).mapToPair(t -> t).partitionBy(new HashPartitioner(lanes)).values();
  }

  private static long weight(Assignment a) {
    return Lanes.weight(a.task().bytes(), a.task().ranges().size());
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
        ExecutorContext.store(bucket, settings).check();
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
        .map(i -> InetAddress.getLocalHost().getHostName())
        .distinct()
        .collect();
    if (!blind.isEmpty()) {
      throw new JobFailure("ferry.destination.path = " + marker.getParent() + " is not visible from executors on " + blind
          + ": on a cluster the destination must be a shared mount (NFS, a shared volume) at the same path on every node");
    }
  }
}
