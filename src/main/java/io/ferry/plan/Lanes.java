package io.ferry.plan;

import java.math.BigInteger;

/**
 * How the copy spreads tasks over its partitions ("lanes"), as pure functions: the plan's tasks laid end to end in
 * plan order, weighed by bytes, and cut into lanes of equal weight; a task belongs to the lane its middle falls in.
 * Each lane then holds the mean within the largest task's weight, where spreading by a hash of task ids can give one
 * lane half as much again as another (20 tasks over 4 lanes: 7, 5, 4, 4 is common). A lane is a function of the
 * task's place in the plan only, so a lane lost with an executor is computed again with the same tasks.
 */
public final class Lanes {
  /** At most this many lanes (Spark tasks) in the copy. */
  static final int MAX_LANES = 1_000_000;

  private Lanes() {}

  /** A task's weight: its bytes, and one for each object so a plan of empty objects still spreads. */
  public static long weight(long bytes, int objects) {
    if (bytes < 0 || objects < 0) throw new IllegalArgumentException("negative bytes or objects: " + bytes + ", " + objects);
    return bytes + objects;
  }

  /**
   * How many lanes: enough that a lane holds about {@code streamsPerLane} tasks (so its streams stay busy), at least
   * one per task slot, a multiple of the slots (so every slot gets the same number of lanes), and never more than the
   * tasks (fewer tasks than slots: a lane each).
   */
  public static int count(long tasks, int streamsPerLane, int slots) {
    if (streamsPerLane < 1 || slots < 1) throw new IllegalArgumentException("streamsPerLane and slots must be positive");
    if (tasks <= slots) return (int) Math.max(1, tasks);
    long byStreams = PartSizing.ceilDiv(tasks, streamsPerLane);
    long wanted = Math.min(PartSizing.ceilDiv(Math.max(byStreams, slots), slots) * slots, Math.min(tasks, MAX_LANES));
    return (int) Math.max(slots, wanted / slots * slots);
  }

  /**
   * Where each partition of the plan starts, given each partition's total weight in order: the running sums, one more
   * than the partitions, the last being the plan's total weight.
   */
  public static long[] starts(long[] partitionWeights) {
    long[] starts = new long[partitionWeights.length + 1];
    for (int i = 0; i < partitionWeights.length; i++) {
      if (partitionWeights[i] < 0) throw new IllegalArgumentException("partition " + i + " weighs " + partitionWeights[i]);
      starts[i + 1] = Math.addExact(starts[i], partitionWeights[i]);
    }
    return starts;
  }

  /**
   * The lane, in {@code [0, lanes)}, of a task that starts {@code start} into a plan of {@code total} weight and
   * weighs {@code weight}: the lane its middle falls in.
   */
  public static int lane(long start, long weight, long total, int lanes) {
    if (lanes < 1) throw new IllegalArgumentException("lanes must be positive: " + lanes);
    if (start < 0 || weight < 0 || start > total || weight > total - start) {
      throw new IllegalArgumentException("task [" + start + ", +" + weight + ") is outside a plan of " + total);
    }
    if (total == 0) return 0;
    // the middle doubled stays integral; the product in 128 bits when 64 cannot hold it
    long doubledMiddle = 2 * start + weight;
    long lane = total < Long.MAX_VALUE / 2 && Math.multiplyHigh(doubledMiddle, lanes) == 0 && doubledMiddle * lanes >= 0
        ? doubledMiddle * lanes / (2 * total)
        : BigInteger.valueOf(start).shiftLeft(1).add(BigInteger.valueOf(weight)).multiply(BigInteger.valueOf(lanes))
            .divide(BigInteger.valueOf(total).shiftLeft(1)).longValueExact();
    return (int) Math.min(lanes - 1, lane);
  }
}
