package io.ferry.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchTest {
  /** A results.csv row: session s1, direct large → files, {@code tool}, {@code wall} seconds, verified or not. */
  private static String[] row(String tool, double wall, String verified) {
    return ("t,s1,direct,large,files," + tool + ",1,1," + wall + ",0,1,1,1,1,1,1,0," + verified + ",").split(",", -1);
  }

  @Test
  void aToolRunSeveralTimesIsItsMedianRunAndAFailedRunCountsAsTheSlowest() {
    String[] fast = row("ferry", 3, "yes");
    String[] middle = row("ferry", 5, "yes");
    String[] slow = row("ferry", 9, "yes");
    String[] failedButQuick = row("rclone", 1, "exit 1");
    String[] peer = row("rclone", 4, "yes");
    String[] raw = row("raw", 2, "read-only");
    Map<String[], Integer> runs = new IdentityHashMap<>();
    Map<String[], Integer> failed = new IdentityHashMap<>();

    List<String[]> medians = Bench.medians(List.of(fast, failedButQuick, raw, slow, peer, middle), runs, failed);

    // rclone's failed 1 s run ranks after its 4 s run, and of two runs the lower middle one is taken
    assertThat(medians).containsExactly(middle, peer, raw);
    assertThat(runs).containsEntry(middle, 3).containsEntry(peer, 2).containsEntry(raw, 1).hasSize(3);
    assertThat(failed).containsEntry(middle, 0).containsEntry(peer, 1).containsEntry(raw, 0); // shown beside "verified"
  }
}
