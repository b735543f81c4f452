package io.ferry.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LanesTest {
  @ParameterizedTest(name = "task [{0}, +{1}) of {2} over {3} lanes -> lane {4}")
  @CsvSource({
      // start, weight, total, lanes, lane
      "0,       0,      0,     4,     0",   // an empty plan
      "0,       10,     40,    4,     0",   // middle 5: first lane
      "10,      10,     40,    4,     1",   // middle 15
      "30,      10,     40,    4,     3",   // the last task, last lane
      "0,       20,     40,    4,     1",   // middle 10: exactly on a lane's edge belongs to the lane above
      "0,       19,     40,    4,     0",   // middle 9.5: below the edge
      "0,       21,     40,    4,     1",   // middle 10.5
      "39,      1,      40,    4,     3",   // the last byte
      "40,      0,      40,    4,     3",   // an empty task at the very end stays in the last lane
      "0,       40,     40,    4,     2",   // one task the whole plan: its middle
      "0,       1,      1,     1,     0",   // one lane
      // a petabyte plan over a million lanes: the product needs more than 64 bits
      "562949953421312, 67108864, 1125899906842624, 1000000, 500000",
      // beyond 2^62 bytes: the slow path
      "4611686018427387904, 1, 4611686018427387905, 2, 1",
  })
  void aTaskBelongsToTheLaneItsMiddleFallsIn(long start, long weight, long total, int lanes, int lane) {
    assertThat(Lanes.lane(start, weight, total, lanes)).isEqualTo(lane);
  }

  @ParameterizedTest(name = "{0} tasks, {1} streams a lane, {2} slots -> {3} lanes")
  @CsvSource({
      // tasks, streams per lane, slots, lanes
      "0,       16,    4,     1",
      "1,       16,    4,     1",       // never more lanes than tasks
      "3,       16,    4,     3",
      "20,      16,    4,     4",       // few tasks: one lane per slot
      "65,      16,    4,     8",       // 5 lanes of streams, rounded up to 2 per slot
      "64,      16,    4,     4",
      "157,     16,    4,     12",      // 10 rounded up to a multiple of 4
      "157,     16,    3,     12",
      "20000,   16,    1,     1250",
      "100000000, 16,  8,     1000000", // capped
      "100000000, 16,  3,     999999",  // capped, down to a multiple of the slots
      "10,      1,     8,     8",       // more tasks than slots but fewer than two lanes each: one round of lanes
      "5,       16,    4,     4",
      "4,       16,    4,     4",
  })
  void lanesAreAMultipleOfTheSlots(long tasks, int streams, int slots, int lanes) {
    assertThat(Lanes.count(tasks, streams, slots)).isEqualTo(lanes);
  }

  @Test
  void twentyEqualTasksInUnevenPartitionsFillFourLanesEvenly() {
    // the cluster bench's large workload: 20 objects of 64 MiB, planned in partitions of 6, 5, 5 and 4 objects
    long object = 64L << 20;
    long[] partitions = {6 * object, 5 * object, 5 * object, 4 * object};
    long[] starts = Lanes.starts(partitions);
    assertThat(starts).containsExactly(0, 6 * object, 11 * object, 16 * object, 20 * object);
    int[] perLane = new int[4];
    for (int p = 0; p < partitions.length; p++) {
      for (long at = starts[p]; at < starts[p + 1]; at += object) perLane[Lanes.lane(at, object, starts[4], 4)]++;
    }
    assertThat(perLane).containsExactly(5, 5, 5, 5);
  }

  @Test
  void lanesBalanceBytesNotTaskCounts() {
    // four parts of 100 then forty bundles of 10: even counts (11 tasks a lane) would give the first lane 470 of 800
    long[] sizes = new long[44];
    for (int i = 0; i < sizes.length; i++) sizes[i] = i < 4 ? 100 : 10;
    assertThat(loads(sizes, 4)).containsExactly(200, 200, 200, 200);
  }

  @Test
  void eachLaneHoldsTheMeanWithinTheLargestTask() {
    long[] sizes = {3, 70, 5, 64, 64, 64, 1, 0, 99, 12, 64, 64, 30, 2, 2, 2, 50, 77, 8, 64, 64, 40, 33, 64, 64, 5};
    long total = Arrays.stream(sizes).sum();
    long largest = Arrays.stream(sizes).max().orElseThrow();
    for (long load : loads(sizes, 4)) assertThat(Math.abs(load - total / 4.0)).isLessThanOrEqualTo(largest);
  }

  private static long[] loads(long[] sizes, int lanes) {
    long total = Arrays.stream(sizes).sum();
    long[] load = new long[lanes];
    long start = 0;
    for (long size : sizes) {
      load[Lanes.lane(start, size, total, lanes)] += size;
      start += size;
    }
    return load;
  }

  @Test
  void weightsAndStartsRefuseNegativesAndTasksOutsideThePlan() {
    assertThat(Lanes.weight(0, 0)).isZero();
    assertThat(Lanes.weight(100, 3)).isEqualTo(103);
    assertThatThrownBy(() -> Lanes.weight(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Lanes.starts(new long[] {1, -1})).hasMessageContaining("partition 1");
    assertThatThrownBy(() -> Lanes.lane(30, 11, 40, 4)).hasMessageContaining("outside a plan of 40");
    assertThatThrownBy(() -> Lanes.lane(Long.MAX_VALUE - 1, Long.MAX_VALUE - 1, 40, 4)).hasMessageContaining("outside a plan of 40");
    assertThatThrownBy(() -> Lanes.lane(0, 0, 0, 0)).hasMessageContaining("lanes must be positive");
  }
}
