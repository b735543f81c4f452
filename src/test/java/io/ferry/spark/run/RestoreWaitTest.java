package io.ferry.spark.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.ArchivedConfig;
import io.ferry.report.RunSummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A run that waits for its restores: when it runs again, how long it sleeps between, and when it stops. */
class RestoreWaitTest {
  private static RunSummary restoring(long n) {
    return new RunSummary(RunSummary.NAME, RunSummary.VERSION, "j", "r", "s", "d", "", "", 0,
        new RunSummary.Objects(n, n, 0, 0, 0, 0, 0, 0, n, n, 0), null, null, null, Map.of(), Map.of(), Map.of(), List.of(), List.of(), "",
        null, null, List.of(), null);
  }

  private static ArchivedConfig waiting(Duration wait, Duration poll) {
    return new ArchivedConfig(ArchivedConfig.Policy.RESTORE, "Standard", 1, wait, poll);
  }

  @Test
  void itPollsDoublingUntilNothingIsRestoringAndReturnsTheLastRun() throws Exception {
    long[] clock = {0};
    List<Duration> slept = new ArrayList<>();
    List<Long> left = new ArrayList<>(List.of(3L, 1L, 0L));
    RunSummary last = RestoreWait.until(waiting(Duration.ofHours(2), Duration.ofMinutes(1)), restoring(5),
        () -> restoring(left.remove(0)), d -> {
          slept.add(d);
          clock[0] += d.toMillis();
        }, () -> clock[0], new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    assertThat(last.pending()).isFalse();
    assertThat(slept).containsExactly(Duration.ofMinutes(1), Duration.ofMinutes(2), Duration.ofMinutes(4));
  }

  @Test
  void itStopsAtTheWaitWithTheLastPollCutToWhatIsLeftAndNeverWaitsWhenTheWaitIsZero() throws Exception {
    long[] clock = {0};
    List<Duration> slept = new ArrayList<>();
    int[] runs = {0};
    RunSummary last = RestoreWait.until(waiting(Duration.ofMinutes(5), Duration.ofMinutes(2)), restoring(5), () -> {
      runs[0]++;
      return restoring(5);
    }, d -> {
      slept.add(d);
      clock[0] += d.toMillis();
    }, () -> clock[0], new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    assertThat(last.pending()).isTrue();
    assertThat(slept).containsExactly(Duration.ofMinutes(2), Duration.ofMinutes(3));
    assertThat(runs[0]).isEqualTo(2);

    RunSummary first = restoring(5);
    assertThat(RestoreWait.until(waiting(Duration.ZERO, Duration.ofMinutes(1)), first, () -> {
      throw new AssertionError("ran again with no wait");
    }, d -> {
      throw new AssertionError("slept with no wait");
    }, () -> 0, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))).isSameAs(first);
  }

  @Test
  void thePollDoublesUpToHalfAnHour() {
    ArchivedConfig a = waiting(Duration.ofDays(2), Duration.ofMinutes(5));
    assertThat(List.of(a.pollAfter(0), a.pollAfter(1), a.pollAfter(2), a.pollAfter(3), a.pollAfter(40))).containsExactly(
        Duration.ofMinutes(5), Duration.ofMinutes(10), Duration.ofMinutes(20), Duration.ofMinutes(30), Duration.ofMinutes(30));
  }
}
