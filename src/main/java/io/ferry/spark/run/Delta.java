package io.ferry.spark.run;

import io.ferry.report.RunInfo;
import io.ferry.report.RunSummary;
import io.ferry.spark.Held;
import io.ferry.spark.JobFailure;
import io.ferry.spark.LookupFunction;
import java.io.IOException;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A delta pass ({@code source.changes} other than {@code listing}): LIST looks up on both sides only the keys its changes
 * name; where they come from, and what it settles once they are committed, is the kind's.
 */
interface Delta extends Mode {
  /** Keys a lookup task takes at most: more keys than that, more tasks than the cluster's cores. */
  long KEYS_PER_SLICE = 2_000;

  /** The keys to look up, relative to the source's prefix, each once, spread over {@link #slices} partitions. */
  JavaRDD<String> keys(RunContext run, Held cache) throws JobFailure;

  /** What the lookups found, before PLAN. */
  default void lookedUp(JavaRDD<LookupFunction.Found> found) throws JobFailure {}

  /** After COMMIT and the cut-over. */
  default void settle(RunContext run, Planned planned, Mode.Committed committed, RunSummary.Deletions deletions) throws IOException {}

  /** Hours since the last pass that read every change began; 0 where unknown. */
  default double hoursSinceLast() {
    return 0;
  }

  /** What the report says of this pass's changes ({@code keys} looked up). */
  default RunInfo.Delta delta(RunContext run, long keys) {
    return new RunInfo.Delta(run.config().source().changes().name(), keys, hoursSinceLast());
  }

  /** The partitions {@code keys} keys are looked up in: the cluster's cores at least. */
  static int slices(JavaSparkContext jsc, long keys) {
    return (int) Math.max(1, Math.min(keys, Math.max(jsc.defaultParallelism(), keys / KEYS_PER_SLICE)));
  }
}
