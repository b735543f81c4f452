package io.ferry.spark.run;

import io.ferry.copy.Assignment;
import io.ferry.copy.RangeResult;
import io.ferry.plan.Lanes;
import io.ferry.plan.PlanTotals;
import io.ferry.spark.AssignFunction;
import io.ferry.spark.CopyCounters;
import io.ferry.spark.CopyRangesFunction;
import io.ferry.spark.Live;
import java.util.Iterator;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import scala.Tuple2;

/** COPY: the assignments spread over lanes of equal weight, each range copied by the executors, with live progress. */
final class CopyStage {
  private CopyStage() {}

  /** What COPY made: every range's result (the resumed ones too) and when the copy ran. */
  record Copied(JavaRDD<RangeResult> ranges, long startMillis, long endMillis) {}

  /**
   * @param plan what the progress line counts to
   * @param keep the results are checkpointed (a replay's generation): a copy is never done again once later ones ran
   */
  static Copied run(RunContext run, PlanTotals plan, OpenStage.Opened open, boolean keep, CopyCounters counters) {
    var jsc = run.jsc();
    OpenStage.OpenCounts opens = open.totals();
    JavaRDD<Assignment> assignments = open.assigned().filter(a -> a.assignment() != null).map(AssignFunction.Assigned::assignment);
    // tuned streams: lanes hold as many ranges as a task's most streams, so the gate, not the lane, bounds them
    int lanes = Lanes.count(opens.assignments(), run.config().copy().threadsPerTask(), jsc.defaultParallelism());
    jsc.setJobGroup("COPY", "COPY: " + plan.ranges() + " ranges of " + plan.objects() + " objects", true);
    JavaRDD<RangeResult> copied = inLanes(assignments, run.held().broadcast(jsc.broadcast(Lanes.starts(open.weights()))), lanes)
        .mapPartitions(new CopyRangesFunction(run.settings(), run.ledgerDirectory(), run.hadoop(), counters));
    JavaRDD<RangeResult> ranges = run.held().persist(opens.resumedRanges() == 0 ? copied
        : copied.union(open.assigned().filter(a -> a.resumed() != null).map(AssignFunction.Assigned::resumed)));
    if (keep) ranges.checkpoint();
    long start = System.currentTimeMillis();
    try (Live live = Live.watch(jsc, counters.all());
        Console.Progress progress = Console.copying(live, counters, plan.bytes() - opens.resumedBytes(),
            plan.ranges() - opens.resumedRanges(), run.config().report().progressInterval(), run.out())) {
      ranges.count();
    }
    return new Copied(ranges, start, System.currentTimeMillis());
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

  static long weight(Assignment a) {
    return Lanes.weight(a.task().bytes(), a.task().ranges().size());
  }
}
