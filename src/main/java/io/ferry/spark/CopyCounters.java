package io.ferry.spark;

import io.ferry.copy.RangeResult;
import io.ferry.store.limits.Meters;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;

/**
 * What the copy has done, added to by the executors as each range finishes (named, so the Spark UI's stage pages show
 * them): bytes that reached the destination, ranges finished, retries, ranges that failed; and bytes of ranges still
 * moving, which the executors' heartbeats carry to the progress line and which sum to 0 once the ranges finish.
 */
public final class CopyCounters implements Serializable {
  private static final long serialVersionUID = 1L;
  public final LongAccumulator bytes;
  public final LongAccumulator ranges;
  public final LongAccumulator retries;
  public final LongAccumulator failures;
  public final LongAccumulator moving;

  public CopyCounters(JavaSparkContext jsc) {
    bytes = jsc.sc().longAccumulator("ferry.copy.bytes");
    ranges = jsc.sc().longAccumulator("ferry.copy.ranges");
    retries = jsc.sc().longAccumulator("ferry.copy.retries");
    failures = jsc.sc().longAccumulator("ferry.copy.failed-ranges");
    moving = jsc.sc().longAccumulator("ferry.copy.bytes-moving");
  }

  public List<LongAccumulator> all() {
    return List.of(bytes, ranges, retries, failures, moving);
  }

  /** From a range's stream thread, at most once a MiB of the range: see {@link io.ferry.copy.Progress}. */
  void moving(long bytes) {
    synchronized (this) {
      moving.add(bytes);
    }
  }

  /** From a range's stream thread: the accumulators are not thread-safe, and a task's streams finish at once. */
  void add(RangeResult r) {
    synchronized (this) {
      bytes.add(r.bytes());
      ranges.add(1);
      retries.add(Math.max(0, r.attempts() - 1));
      if (r.status() != RangeResult.Status.OK) failures.add(1);
    }
    Meters.range(r.bytes(), r.durationNanos() / 1_000_000, r.status() == RangeResult.Status.OK);
  }
}
