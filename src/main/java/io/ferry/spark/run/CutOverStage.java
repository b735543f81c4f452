package io.ferry.spark.run;

import io.ferry.commit.Deleter;
import io.ferry.commit.Deletion;
import io.ferry.config.CutOver;
import io.ferry.config.DirectoryConfig;
import io.ferry.config.Overlaps;
import io.ferry.plan.CutOverPlan;
import io.ferry.plan.Decision;
import io.ferry.report.DatasetFiles;
import io.ferry.report.Datasets;
import io.ferry.report.ReportWriter;
import io.ferry.report.RunSummary;
import io.ferry.spark.CopySettings;
import io.ferry.spark.ExecutorContext;
import io.ferry.spark.JobFailure;
import io.ferry.store.Destination;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;

/**
 * DELETE, the cut-over pass ({@code destination.delete-extraneous}): decided on the driver ({@link CutOverPlan}); when
 * it runs, its plan is written into the run's report ({@code deletion-plan}) before anything is deleted, then the
 * executors look each object up at the source and delete or move aside only those it does not hold ({@link Deleter}),
 * writing what became of each ({@code deletions}).
 */
final class CutOverStage {
  private CutOverStage() {}

  /**
   * The objects archived at the source that this run did not copy: failed or skipped as archived, or still restoring;
   * one found restored was copied with the rest (counted only where a cut-over would otherwise run).
   */
  private static long archivedLeft(CutOver cutOver, long extraneous, Planned planned) {
    if (!cutOver.enabled() || extraneous == 0 || planned.totals().archived() == 0) return planned.totals().archived();
    long setAside = planned.setAside().decisions().filter(d -> d.kind() == Decision.Kind.ARCHIVED
        || d.kind() == Decision.Kind.NOT_COPIED && d.object().isArchived()).count();
    return setAside + planned.setAside().restoring().count();
  }

  /**
   * @param failed the objects of the run that failed (a cut-over after failures is refused)
   * @return what the pass did; null where the job asks for none
   */
  static RunSummary.Deletions run(RunContext run, Planned planned, long failed) throws IOException, JobFailure {
    run.stillHeld("its cut-over pass and its ledger's cleanup");
    if (run.config().destination().cutOver().enabled()) Overlaps.recheck(run.config()); // a link may have changed since the start
    RunSummary.Deletions deletions = pass(run, planned, failed);
    if (deletions != null && deletions.ran()) run.stages().lap("delete");
    return deletions;
  }

  private static RunSummary.Deletions pass(RunContext run, Planned planned, long failed) throws IOException {
    JavaSparkContext jsc = run.jsc();
    CopySettings settings = run.settings();
    PrintStream out = run.out();
    String runDirectory = new ReportWriter(jsc.hadoopConfiguration(), run.config().reportPath(), run.config().jobName(),
        settings.runId()).qualifiedRunDirectory();
    CutOver cutOver = settings.destination().cutOver();
    long extraneous = planned.totals().extraneous();
    CutOverPlan decision = CutOverPlan.decide(cutOver, extraneous, planned.totals().objects() + planned.totals().unchanged(), failed,
        planned.totals().rejected(), planned.totals().notCopied(), archivedLeft(cutOver, extraneous, planned));
    switch (decision.outcome()) {
      case NONE -> {
        return null;
      }
      case SKIPPED, REFUSED -> {
        String reason = decision.reason() + (decision.outcome() == CutOverPlan.Outcome.REFUSED && run.config().source().changes().delta()
            && cutOver.maxPercent() >= 0 ? "; a delta pass weighs a percentage against only the keys its events name: give delta passes"
            + " a count (destination.max-delete = 1000)" : "");
        out.printf("DELETE %s: %s%n", decision.outcome().word(), reason);
        return RunSummary.Deletions.notRun(decision.outcome(), reason, extraneous);
      }
      case RUN -> {
        // below
      }
    }
    jsc.setJobGroup("DELETE", "DELETE: " + extraneous + " extraneous objects at the destination", true);
    // a pass's own folder under delete-to: an object moved aside by an earlier pass is never replaced by a later one
    String moveTo = !cutOver.moves() ? "" : settings.destination().store() instanceof DirectoryConfig
        ? Path.of(cutOver.moveTo(), settings.runId()).toString() : cutOver.moveTo() + settings.runId() + "/";
    // one set, kept for both jobs (the plan written, then the deletions), and the one the cap was checked on
    JavaRDD<Decision> gone = planned.setAside().of(Decision.Kind.EXTRANEOUS)
        .persist(StorageLevel.MEMORY_AND_DISK_SER());
    long counted = gone.count();
    if (counted != extraneous) {
      gone.unpersist();
      String reason = "the plan counted " + extraneous + " extraneous objects and the pass found " + counted + " (a listing computed"
          + " again saw another destination): nothing deleted; a rerun plans again";
      out.printf("DELETE refused: %s%n", reason);
      return RunSummary.Deletions.notRun(CutOverPlan.Outcome.REFUSED, reason, extraneous);
    }
    long[] counts;
    try {
      counts = remove(run, gone, moveTo, runDirectory);
    } finally {
      gone.unpersist();
    }
    Map<Deletion.Status, Long> by = new EnumMap<>(Deletion.Status.class);
    for (Deletion.Status s : Deletion.Status.values()) by.put(s, counts[s.ordinal()]);
    Console.printDeleted(out, by, cutOver.moves() ? "moved to " + moveTo : "deleted", runDirectory);
    return RunSummary.Deletions.ran(extraneous, by.get(Deletion.Status.DELETED), by.get(Deletion.Status.MOVED),
        by.get(Deletion.Status.KEPT), by.get(Deletion.Status.FAILED));
  }

  /**
   * On the executors: the pass's plan written (deletion-plan) before anything is deleted, then each object looked up at
   * the source and deleted or moved aside only where it holds none (deletions). Returns the count of each outcome.
   */
  private static long[] remove(RunContext run, JavaRDD<Decision> gone, String moveTo, String runDirectory) throws IOException {
    JavaSparkContext jsc = run.jsc();
    CopySettings settings = run.settings();
    Broadcast<SerializableConfiguration> conf = SerializableConfiguration.broadcast(jsc.sc());
    String job = settings.job(), runId = settings.runId();
    long[] counts;
    try {
      String action = moveTo.isEmpty() ? "delete" : "move to " + moveTo;
      gone.mapPartitionsWithIndex((part, decisions) -> {
        Destination destination = ExecutorContext.destination(settings);
        Iterator<Deletion> rows = new Iterator<>() {
          @Override
          public boolean hasNext() {
            return decisions.hasNext();
          }

          @Override
          public Deletion next() {
            var o = decisions.next().object();
            return new Deletion(o, destination.location(o), Deletion.Status.PLANNED, action);
          }
        };
        DatasetFiles.writePart(Datasets.deletions("deletion-plan", job, runId), rows, runDirectory, part, attempt(), conf.value().value(),
            r -> {});
        return List.<Long>of().iterator();
      }, true).count();
      DatasetFiles.markDone(Datasets.deletions("deletion-plan", job, runId), runDirectory, jsc.hadoopConfiguration());

      counts = gone.mapPartitionsWithIndex((part, decisions) -> {
        Deleter deleter = new Deleter(ExecutorContext.source(settings).lister(), ExecutorContext.destination(settings),
            ExecutorContext.retrier(settings), moveTo);
        long[] tally = new long[Deletion.Status.values().length];
        Iterator<Deletion> rows = new Iterator<>() {
          @Override
          public boolean hasNext() {
            return decisions.hasNext();
          }

          @Override
          public Deletion next() {
            return deleter.remove(decisions.next().object());
          }
        };
        DatasetFiles.writePart(Datasets.deletions("deletions", job, runId), rows, runDirectory, part, attempt(), conf.value().value(),
            d -> tally[d.status().ordinal()]++);
        return List.of(tally).iterator();
      }, true).fold(new long[Deletion.Status.values().length], CutOverStage::sum);
      DatasetFiles.markDone(Datasets.deletions("deletions", job, runId), runDirectory, jsc.hadoopConfiguration());
    } finally {
      conf.destroy();
    }
    return counts;
  }

  private static String attempt() {
    return String.valueOf(TaskContext.get().taskAttemptId());
  }

  private static long[] sum(long[] a, long[] b) {
    long[] s = new long[a.length];
    for (int i = 0; i < a.length; i++) s[i] = a[i] + b[i];
    return s;
  }
}
