package io.ferry.spark.run;

import io.ferry.commit.ObjectResult;
import io.ferry.config.BucketConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.copy.RangeResult;
import io.ferry.plan.CopyTask;
import io.ferry.plan.PlanTotals;
import io.ferry.plan.RangeTask;
import io.ferry.report.ReportWriter;
import io.ferry.report.Units;
import io.ferry.spark.CopyCounters;
import io.ferry.spark.JobFailure;
import io.ferry.spark.MarkFunction;
import io.ferry.spark.PlanFunction;
import io.ferry.spark.ReplayRecords;
import io.ferry.store.Destination;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;

/**
 * A replay of versions ({@code source.versions = all} into a bucket): PLAN joins each key's versions with the
 * destination's ({@link Planning}); the plan's tasks write the first generation, and after its commit each
 * generation's delete markers, then the next generation's objects (the next version of each key), and so on, so that
 * each key's versions are written oldest first. A key stops at its first version that failed: nothing after it is
 * written, and a rerun replays from there. Before each generation writes, the source versions it is about to write are
 * recorded in the ledger, and after it, the versions the destination gave them ({@link ReplayRecords}).
 */
final class VersionReplay implements Mode {
  /** False in a dry run: its histories are not kept, nothing is recorded. */
  private final boolean writes;
  /** The checkpoint folder the Spark context had before the run set its own, if any. */
  private Optional<String> checkpointsBefore = Optional.empty();

  VersionReplay(boolean writes) {
    this.writes = writes;
  }

  static boolean replays(MigrationConfig config) {
    return config.source().store() instanceof BucketConfig b && b.versions() && config.destination().store() instanceof BucketConfig;
  }

  /**
   * Keeps the histories in the run's folder while the run writes them (deleted at its end): computed again from a new
   * listing of the destination (an executor lost), each history would start at what the generations already wrote, and
   * a generation's index would pass over versions.
   */
  void keep(RunContext run, JavaRDD<List<StoreObject>> histories) throws IOException {
    if (!writes) return;
    checkpointsBefore = Optional.ofNullable(run.jsc().getCheckpointDir().orNull());
    run.jsc().setCheckpointDir(checkpoints(run));
    histories.checkpoint();
  }

  /** The keys whose histories are written, in how many generations (the longest of them), and the delete markers among them. */
  String line(Planned planned) {
    long[] t = planned.histories().map(h -> new long[] {1, h.size(), h.stream().filter(StoreObject::isDeleteMarker).count()})
        .fold(new long[3], (a, b) -> new long[] {a[0] + b[0], Math.max(a[1], b[1]), a[2] + b[2]});
    return "VERSIONS " + t[0] + " keys' histories written oldest first, in " + t[1] + " generations (the longest), "
        + t[2] + " delete markers among them";
  }

  @Override
  public void writing(RunContext run, JavaRDD<CopyTask> tasks, int generation) {
    if (writes) record(run, tasks, 3 * 2 * generation);
  }

  @Override
  public Committed committed(RunContext run, Planned planned, Committed first) throws JobFailure, IOException {
    first.objects().checkpoint(); // a generation's writes are never done again: after later ones, they would go on top of them
    JavaRDD<List<StoreObject>> histories = planned.histories();
    int generations = histories.map(List::size).fold(0, Math::max);
    JavaRDD<ObjectResult> objects = first.objects();
    JavaRDD<RangeResult> ranges = first.copied().ranges();
    long end = first.copied().endMillis();
    Set<String> stopped = new HashSet<>(failedKeys(objects));
    recordWritten(run, objects, 0);
    for (int g = 0; g < generations; g++) {
      int gen = g;
      // versioning suspended meanwhile would make each write replace the key's null version, and each marker delete it
      if (!keepsVersions(run.destination())) {
        throw new JobFailure("the destination " + run.settings().destination().describe() + " no longer keeps versions (its"
            + " versioning was suspended during the run): its histories are written up to generation " + gen + "; enable versioning"
            + " and run again");
      }
      if (g > 0) {
        Broadcast<Set<String>> stop = run.held().broadcast(run.jsc().broadcast(new HashSet<>(stopped)));
        JavaRDD<CopyTask> tasks = run.held().persist(Planning.generation(histories, gen)
            .filter(o -> !stop.value().contains(o.relativeKey()))
            .mapPartitionsWithIndex(new PlanFunction(run.config().plan(), run.destination().capabilities(), run.serverSide(), gen), true));
        PlanTotals totals = tasks.map(PlanTotals::of).fold(PlanTotals.NONE, PlanTotals::plus);
        if (totals.objects() > 0) {
          run.out().printf("VERSIONS generation %d of %d: %d versions, %s%n", gen + 1, generations, totals.objects(),
              Units.bytes(totals.bytes()));
          writing(run, tasks, gen);
          OpenStage.Opened open = OpenStage.run(run, tasks, totals.splitObjects(), gen);
          CopyStage.Copied copied = CopyStage.run(run, totals, open, true, new CopyCounters(run.jsc()));
          JavaRDD<ObjectResult> committed = CommitStage.run(run, copied, totals, "generation " + (gen + 1) + " of the versions");
          committed.checkpoint();
          stopped.addAll(failedKeys(committed));
          recordWritten(run, committed, 2 * gen);
          objects = objects.union(committed);
          ranges = ranges.union(copied.ranges());
          end = copied.endMillis();
        }
      }
      Broadcast<Set<String>> stopMarks = run.held().broadcast(run.jsc().broadcast(new HashSet<>(stopped)));
      JavaRDD<ObjectResult> marked = run.held().persist(histories.filter(h -> h.size() > gen && h.get(gen).isDeleteMarker()
          && !stopMarks.value().contains(h.get(gen).relativeKey())).map(h -> h.get(gen))
          .mapPartitions(new MarkFunction(run.settings())));
      marked.checkpoint();
      run.jsc().setJobGroup("COMMIT", "COMMIT: delete markers of generation " + (gen + 1), true);
      if (marked.count() > 0) {
        stopped.addAll(failedKeys(marked));
        recordWritten(run, marked, 2 * gen + 1);
        objects = objects.union(marked);
      }
    }
    return new Committed(new CopyStage.Copied(ranges, first.copied().startMillis(), end), objects);
  }

  /** What the replay kept while the run went on, and the context's own checkpoint folder back. */
  @Override
  public void ended(RunContext run) throws IOException {
    if (!writes) return;
    Path dir = new Path(checkpoints(run));
    FileSystem fs = dir.getFileSystem(run.jsc().hadoopConfiguration());
    if (fs.exists(dir)) fs.delete(dir, true);
    // a shared context's own folder back (an earlier run's is gone: setting it again would make it anew)
    if (checkpointsBefore.isPresent() && !checkpointsBefore.get().contains("/.checkpoints/")) {
      run.jsc().setCheckpointDir(checkpointsBefore.get());
    }
  }

  private static String checkpoints(RunContext run) throws IOException {
    return new ReportWriter(run.jsc().hadoopConfiguration(), run.config().reportPath(), run.config().jobName(), run.settings().runId())
        .qualifiedRunDirectory() + "/.checkpoints";
  }

  /** The source versions a generation is about to write, recorded before it writes them ({@link ReplayRecords}). */
  private static void record(RunContext run, JavaRDD<CopyTask> tasks, int file) {
    run.jsc().setJobGroup("COPY", "COPY: the versions about to be written, recorded", true);
    tasks.flatMap(t -> t.ranges().stream().filter(r -> r.partNumber() == 1 && r.object().isVersion()).map(RangeTask::object).iterator())
        .foreachPartition(new ReplayRecords.Writing(run.settings(), run.ledgerDirectory(), run.hadoop(), file));
  }

  /**
   * The versions a generation wrote, recorded by the source versions they copy, before the next generation writes;
   * {@code step} tells the generation's objects and markers apart in the ledger's names.
   */
  private static void recordWritten(RunContext run, JavaRDD<ObjectResult> committed, int step) {
    run.jsc().setJobGroup("COMMIT", "COMMIT: the versions written, recorded by the source versions they copy", true);
    committed.filter(o -> o.status() == ObjectResult.Status.COPIED && o.object().isVersion())
        .foreachPartition(new ReplayRecords.Written(run.settings(), run.ledgerDirectory(), run.hadoop(), 3 * step + 1));
  }

  private static List<String> failedKeys(JavaRDD<ObjectResult> objects) {
    return objects.filter(o -> o.status() == ObjectResult.Status.FAILED).map(o -> o.object().relativeKey()).collect();
  }

  /** Whether the destination keeps every version written to a key now (its versioning enabled). */
  static boolean keepsVersions(Destination destination) throws IOException {
    return destination.versions().isPresent() && destination.versions().get().keepsVersions();
  }
}
