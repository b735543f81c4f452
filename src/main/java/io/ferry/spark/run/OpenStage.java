package io.ferry.spark.run;

import io.ferry.plan.CopyTask;
import io.ferry.report.Units;
import io.ferry.spark.AssignFunction;
import io.ferry.spark.ExecutorContext;
import io.ferry.store.Destination;
import io.ferry.store.Upload;
import io.ferry.store.retry.Retrier;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import scala.Tuple2;

/**
 * OPEN: the objects written in parts opened (or their earlier uploads taken over) where their first part is planned.
 * When any cannot be opened, those this run opened are aborted and the run stops.
 */
final class OpenStage {
  private OpenStage() {}

  /** What OPEN made: every task with what it copies (and the ranges resumed), what opening did, and the lanes' weights. */
  record Opened(JavaRDD<AssignFunction.Assigned> assigned, OpenCounts totals, long[] weights) {
    long opened() {
      return totals.fresh() + totals.reused();
    }
  }

  /** What OPEN did, added up over its partitions. */
  record OpenCounts(long assignments, long weight, long fresh, long reused, long failed, long resumedRanges, long resumedBytes)
      implements Serializable {
    static final OpenCounts NONE = new OpenCounts(0, 0, 0, 0, 0, 0, 0);

    static OpenCounts of(AssignFunction.Assigned a) {
      if (a.assignment() != null) return new OpenCounts(1, CopyStage.weight(a.assignment()), 0, 0, 0, 0, 0);
      if (a.resumed() != null) return new OpenCounts(0, 0, 0, 0, 0, 1, a.resumed().length());
      if (!a.opened().ok()) return new OpenCounts(0, 0, 0, 0, 1, 0, 0);
      return a.reused() ? new OpenCounts(0, 0, 0, 1, 0, 0, 0) : new OpenCounts(0, 0, 1, 0, 0, 0, 0);
    }

    OpenCounts plus(OpenCounts o) {
      return new OpenCounts(assignments + o.assignments, weight + o.weight, fresh + o.fresh, reused + o.reused, failed + o.failed,
          resumedRanges + o.resumedRanges, resumedBytes + o.resumedBytes);
    }
  }

  /** @param generation of a replay's versions (0 for the plan's tasks): its ledger files are apart from other generations' */
  static Opened run(RunContext run, JavaRDD<CopyTask> tasks, long splitObjects, int generation) throws IOException {
    run.jsc().setJobGroup("OPEN", "OPEN: " + splitObjects + " objects written in parts", true);
    JavaRDD<AssignFunction.Assigned> assigned = run.held().persist(tasks.mapPartitions(new AssignFunction(run.settings(),
        run.ledgerDirectory(), run.hadoop(), run.resumption(), generation)));
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
      abortFresh(run, assigned);
      if (opens.reused() > 0) {
        run.out().printf("KEPT  %d objects opened by earlier runs and the parts they hold, for a rerun of job %s to resume; 'ferry"
            + " cleanup' removes them%n", opens.reused(), run.config().jobName());
      }
      throw new IOException("cannot open " + opens.failed() + " objects at " + run.settings().destination().describe() + ": "
          + String.join("; ", errors));
    }
    if (opens.reused() > 0) {
      run.out().printf("RESUME %d objects opened by earlier runs, %d of their parts already copied (%s)%n", opens.reused(),
          opens.resumedRanges(), Units.bytes(opens.resumedBytes()));
    }
    return new Opened(assigned, opens, weights);
  }

  /** After a copy that did not reach its commit: what it opened stays, for a rerun to resume. */
  static void printKept(RunContext run, Opened open) {
    if (open.opened() == 0) return;
    run.out().printf("KEPT  %d objects opened for writing (multipart uploads, temp files) and the parts they hold, for a rerun of job"
        + " %s to resume; 'ferry cleanup' removes them%n", open.opened(), run.config().jobName());
  }

  /** Objects could not be opened: those this run opened are aborted (on the executors) before it stops. */
  private static void abortFresh(RunContext run, JavaRDD<AssignFunction.Assigned> assigned) {
    var settings = run.settings();
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
      run.out().printf("ABORT %d objects opened for writing%s%n", counts[0] + counts[1], counts[1] == 0 ? "" : " (" + counts[1]
          + " aborts failed)");
    }
  }
}
