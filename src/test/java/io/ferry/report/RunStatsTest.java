package io.ferry.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ferry.commit.ObjectResult;
import io.ferry.copy.RangeResult;
import io.ferry.store.StoreObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunStatsTest {
  private static RangeResult range(String key, int part, long bytes, long startMillis, long durationMillis, int attempts, String executor) {
    return RangeResult.of(new StoreObject(key, key, bytes * 10, "e", 0), "/d/" + key).task(0).part(part, 10, 0, bytes).bytes(bytes, bytes)
        .times(startMillis, startMillis + durationMillis, 5_000_000, durationMillis * 1_000_000).attempts(attempts).by("get+write",
        executor, "h")
        .digests("00000000", "", "").build();
  }

  @Test
  void oneRangeMovingOneMegabytePerSecondForTwoSecondsFillsTheTimelineEvenly() {
    RunStats s = new RunStats(0, 10_000, 100); // 100 ms buckets... at least 100 ms
    s.add(range("a", 1, 2_000_000, 1_000, 2_000, 1, "0"));
    List<double[]> timeline = s.timeline();
    assertThat(timeline.get(5)[1]).isZero();
    assertThat(timeline.get(15)[1]).isCloseTo(1.0, within(1e-9)); // MB/s inside the range
    double total = timeline.stream().mapToDouble(p -> p[1] * 0.1).sum();
    assertThat(total).isCloseTo(2.0, within(1e-9)); // MB over the whole timeline
  }

  @Test
  void eachExecutorsTimelineIsItsShareOfTheRunsAndRetriesLandWhereTheirRangeFinished() {
    RunStats s = new RunStats(0, 10_000, 100);
    s.add(range("a", 1, 2_000_000, 1_000, 2_000, 1, "0"));
    s.add(range("b", 1, 3_000_000, 2_000, 3_000, 3, "1")); // two retries, finished at 5 s
    s.add(range("c", 1, 1_000_000, 2_500, 500, 2, "1")); // one, finished at 3 s
    List<double[]> all = s.timeline();
    for (int b = 0; b < all.size(); b++) {
      assertThat(s.timeline("0").get(b)[1] + s.timeline("1").get(b)[1]).as("bucket %d", b).isCloseTo(all.get(b)[1], within(1e-9));
    }
    assertThat(s.timeline("0").get(15)[1]).isCloseTo(1.0, within(1e-9));
    assertThat(s.timeline("1").get(15)[1]).isZero();
    assertThat(s.timeline("2")).isEmpty();
    assertThat(s.retries()).extracting(p -> p[0] + " s: " + p[1]).containsExactly("3.0 s: 1.0", "5.0 s: 2.0");
    assertThat(s.throttled()).isEmpty();
    assertThat(HtmlReport.throughputChart(s)).doesNotContain("class=throttled");
    RunStats slowed = new RunStats(0, 10_000, 100);
    slowed.add(RangeResult.of(new StoreObject("d", "d", 10, "e", 0), "/d/d").part(1, 1, 0, 10).bytes(10, 10)
        .times(1_000, 4_000, 1, 3_000_000_000L).attempts(3, 2).by("get+write", "0", "h").build());
    assertThat(slowed.throttled()).extracting(p -> p[0] + " s: " + p[1]).containsExactly("4.0 s: 2.0");
    assertThat(slowed.merge(new RunStats(0, 10_000, 100)).throttled()).hasSize(1);
    assertThat(HtmlReport.throughputChart(slowed)).contains("<path class=throttled").contains("2 answers asking to slow down")
        .contains("orange marks above them");
    String svg = HtmlReport.throughputChart(s);
    assertThat(svg.split("<path class=total", -1)).hasSize(2);
    assertThat(svg.split("<path class=executor", -1)).as("a line per executor").hasSize(3);
    assertThat(svg.split("<circle class=retry", -1)).as("a mark per bucket with retries").hasSize(3);
    assertThat(svg).contains("<title>2 retries, ranges finished at 5.00 s</title>");
    RunStats one = new RunStats(0, 10_000, 100);
    one.add(range("a", 1, 2_000_000, 1_000, 2_000, 1, "0"));
    assertThat(HtmlReport.throughputChart(one)).as("one executor: its line is the total").doesNotContain("class=executor")
        .doesNotContain("class=retry");
  }

  @Test
  void theTailBeginsWhereFewerThanHalfTheMostStreamsStayBusyToTheEndAndTheLanesMarkTheTasksRunningInIt() {
    RunStats s = new RunStats(0, 5_000, 50); // 100 ms buckets
    for (int i = 0; i < 4; i++) s.add(range("short" + i, 1, 1_000_000, 0, 1_000, 1, "0")); // 4 streams for 1 s
    s.add(range("long", 1, 1_000_000, 0, 4_000, 1, "0")); // one goes on to 4 s
    // 5 streams at most; after 1 s one stream, under half: the tail is 1 s to 4 s
    assertThat(s.tailStartMillis(4.0)).isEqualTo(1_000);
    RunStats even = new RunStats(0, 5_000, 50);
    for (int i = 0; i < 4; i++) even.add(range("even" + i, 1, 1_000_000, 0, 4_000, 1, "0"));
    assertThat(even.tailStartMillis(4.0)).as("busy to the end: no tail").isEqualTo(Long.MAX_VALUE);
    // a dip in the middle is no tail: only the last stretch counts
    RunStats dip = new RunStats(0, 5_000, 50);
    for (int i = 0; i < 4; i++) dip.add(range("a" + i, 1, 1_000_000, 0, 1_000, 1, "0"));
    for (int i = 0; i < 4; i++) dip.add(range("b" + i, 1, 1_000_000, 2_000, 2_000, 1, "0"));
    assertThat(dip.tailStartMillis(4.0)).isEqualTo(Long.MAX_VALUE);
    assertThat(new RunStats(0, 5_000, 50).tailStartMillis(4.0)).as("nothing copied").isEqualTo(Long.MAX_VALUE);

    List<PartitionStats> tasks = List.of(new PartitionStats(0, "0", "h", 4, 4, 4_000_000, 0, 1_000, 0, 0),
        new PartitionStats(1, "0", "h", 1, 1, 1_000_000, 0, 4_000, 0, 0));
    String svg = LanesChart.of(tasks, s.tailStartMillis(4.0));
    assertThat(svg.split("class=\"task straggler\"", -1)).as("only the task running in the tail").hasSize(2);
    assertThat(svg).contains("<line class=tail").contains("red: in the tail");
    assertThat(LanesChart.of(tasks, Long.MAX_VALUE)).doesNotContain("straggler").doesNotContain("class=tail");
  }

  @Test
  void theObjectsNotCopiedAreTheFirstByKeyWhateverThePartitionsAndThePageListsThemWithWhy() {
    RunStats left = new RunStats(0, 1_000, 10);
    RunStats right = new RunStats(0, 1_000, 10);
    for (int i = 0; i < 30; i++) {
      StoreObject o = new StoreObject(String.format("link-%02d", i), String.format("link-%02d", i), 0, "", 0);
      (i % 3 == 0 ? left : right).add(ObjectResult.row(o, "", ObjectResult.Status.NOT_COPIED, "a symbolic link to t-" + i, ""));
    }
    RunStats merged = right.merge(left);
    assertThat(merged.notCopied()).extracting(o -> o.object().key()).hasSize(RunStats.FAILURES).startsWith("link-00", "link-01")
        .endsWith("link-19");
    RunSummary summary = new RunSummary(RunSummary.NAME, RunSummary.VERSION, "j", "r", "s", "d", "", "", 1,
        new RunSummary.Objects(30, 0, 0, 0, 0, 0, 0, 30, 0, 0, 0), new RunSummary.Bytes(0, 0, 0), new RunSummary.Ranges(0, 0, 0, 0, 0),
        new RunSummary.Throughput(0, 0, 0, 0, 0, 0, 0, 0), java.util.Map.of(), java.util.Map.of(), java.util.Map.of(), List.of(), List.of(),
        "", null, null, List.of(), null);
    String page = HtmlReport.render(summary, merged, List.of());
    assertThat(page).contains("<h2>Objects not copied</h2><p>Left by the job's settings (30 in all;")
        .contains("<td class=l>link-07</td><td>0 B</td><td class=l>a symbolic link to t-7</td>").doesNotContain("link-20");
  }

  @Test
  void mergingPartitionsGivesTheSameStatisticsAsOnePass() {
    RunStats whole = new RunStats(0, 60_000, 120);
    RunStats left = new RunStats(0, 60_000, 120);
    RunStats right = new RunStats(0, 60_000, 120);
    for (int i = 1; i <= 100; i++) {
      RangeResult r = range("k" + i, i, i * 1_000_000L, i * 100L, 1_000, i % 7 == 0 ? 3 : 1, i % 2 == 0 ? "0" : "1");
      whole.add(r);
      (i <= 37 ? left : right).add(r);
    }
    RunStats merged = left.merge(right);
    assertThat(merged.rateQuantile(0.5)).isEqualTo(whole.rateQuantile(0.5)).isCloseTo(50.0, within(1e-9));
    assertThat(merged.rateQuantile(0.99)).isCloseTo(99.0, within(1e-9));
    assertThat(merged.get(RunStats.Count.RETRIES)).isEqualTo(whole.get(RunStats.Count.RETRIES)).isEqualTo(14 * 2);
    assertThat(merged.get(RunStats.Count.BYTES)).isEqualTo(5050 * 1_000_000L);
    assertThat(merged.slowest()).hasSize(5);
    assertThat(merged.executors()).containsOnlyKeys("0", "1");
    assertThat(merged.executors().get("0").ranges).isEqualTo(50);
    assertThat(merged.requestsByMethod.counts()).containsEntry("get+write", 100L + 14 * 2);
    assertThat(merged.retries()).usingRecursiveComparison().isEqualTo(whole.retries());
    for (String executor : List.of("0", "1")) {
      for (int b = 0; b < whole.timeline().size(); b++) {
        assertThat(merged.timeline(executor).get(b)[1]).isCloseTo(whole.timeline(executor).get(b)[1], within(1e-6));
      }
    }
    assertThat(merged.timeline()).hasSameSizeAs(whole.timeline());
    for (int b = 0; b < whole.timeline().size(); b++) {
      assertThat(merged.timeline().get(b)[1]).isCloseTo(whole.timeline().get(b)[1], within(1e-6));
    }
  }

  @Test
  void failuresAreTheFirstTwentyByKey() {
    RunStats s = new RunStats(0, 0, 0);
    for (int i = 30; i > 0; i--) {
      s.add(new ObjectResult(new StoreObject(String.format("k%02d", i), "x", 1, "", 0), "", 1, 0, ObjectResult.Status.FAILED, "e", "",
          "", ""));
    }
    s.add(new ObjectResult(new StoreObject("ok", "ok", 5, "", 0), "", 1, 5, ObjectResult.Status.COPIED, "", "read-back-crc32c",
        "crc32c:AAAAAA==", ""));
    assertThat(s.failures()).hasSize(20).first().satisfies(f -> assertThat(f.object().key()).isEqualTo("k01"));
    assertThat(s.get(RunStats.Count.OBJECTS_FAILED)).isEqualTo(30);
    assertThat(s.get(RunStats.Count.OBJECT_BYTES_COPIED)).isEqualTo(5);
  }

  @Test
  void theSampleIsBoundedAndQuantilesComeFromIt() {
    RunStats s = new RunStats(0, 1_000, 10);
    for (int i = 0; i < 3 * RunStats.SAMPLE; i++) s.add(range("k" + i, 1, 1_000_000, 0, 1_000, 1, "0"));
    assertThat(s.sampled()).hasSize(RunStats.SAMPLE);
    assertThat(s.rateQuantile(0.5)).isCloseTo(1.0, within(1e-9));
    assertThat(s.firstByteQuantile(0.5)).isCloseTo(5.0, within(1e-9));
  }
}
