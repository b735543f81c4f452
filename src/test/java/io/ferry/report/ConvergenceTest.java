package io.ferry.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Where delta passes settle: a boundary table of T = a / (1 - b r). */
class ConvergenceTest {
  @ParameterizedTest(name = "a={0} s, b={1} s, r={2}/s -> {3}")
  @CsvSource(delimiter = '|', textBlock = """
      10 | 0.004 | 0      | 10
      10 | 0.004 | 125    | 20
      10 | 0.004 | 200    | 50
      10 | 0.004 | 249.5  | 5000
      10 | 0.004 | 250    | -1
      10 | 0.004 | 1000   | -1
      0  | 0.004 | 100    | 0
      10 | 0     | 1e9    | 10
      """)
  void passesBackToBackSettleWhereAPassesChangesAreThoseMadeWhileTheLastRan(double a, double b, double r, double settle) {
    assertThat(Convergence.settle(a, b, r)).isCloseTo(settle, within(1e-6));
  }

  @Test
  void aPassesSecondsSplitIntoThoseThatGrowWithItsKeysAndTheRest() {
    Map<String, Double> stages = Map.of("preflight", 0.1, "spark", 0.4, "changes", 2.0, "list", 4.0, "plan", 1.0, "copy", 3.0,
        "commit", 0.5, "delete", 0.5, "report", 1.5);
    Convergence c = Convergence.of("events", 1000, 2.0, stages);
    assertThat(c.fixedSeconds()).isCloseTo(5.0, within(1e-9));
    assertThat(c.secondsPerKey()).isCloseTo(0.008, within(1e-9));
    assertThat(c.changesPerHour()).isCloseTo(500, within(1e-9));
    assertThat(c.settleSeconds()).isCloseTo(5.0 / (1 - 0.008 * 500 / 3600), within(1e-9));
    assertThat(c.line()).startsWith("1000 keys changed in 2.0 h (500 an hour); this pass: 5 s that do not grow with its keys, 8.0 ms"
        + " a key; passes run back to back settle at 5 s");
    assertThat(Convergence.of("events", 1000, 0, stages).line()).endsWith("the rate of change is known from the second pass on");
    assertThat(Convergence.of("events", 1000, 0.001, stages).line()).contains("passes cannot keep up with the writers");
    assertThat(Convergence.of("events", 0, 1, stages).settleSeconds()).isZero();
  }

  @Test
  void aMeasuredPassProjectsTheNextAndTheWindow() {
    Convergence measured = new Convergence("events", 1000, 2.0, 500, 5.0, 0.008, 5.0 / (1 - 0.008 * 500 / 3600));
    Convergence.Projection p = measured.project(2000, 1.0); // twice the keys, in half the time: four times the rate
    assertThat(p.nextSeconds()).isCloseTo(5.0 + 0.008 * 2000, within(1e-9));
    assertThat(p.changesPerHour()).isCloseTo(2000, within(1e-9));
    assertThat(p.settleSeconds()).isCloseTo(5.0 / (1 - 0.008 * 2000 / 3600), within(1e-9));
    assertThat(p.line("R")).isEqualTo("the next pass about 21 s for its 2000 keys (as run R measured a pass); at 2000 changes an hour"
        + " passes settle at 5 s: once writers stop, the last pass takes about that long (the cut-over window), then verify --manifest");
    assertThat(measured.project(10, 0).changesPerHour()).as("no time since the last: the measured rate stands").isEqualTo(500);
    assertThat(measured.project(1_000_000, 1.0).line("R")).endsWith("passes cannot keep up with the writers: stop them, then run one"
        + " pass");
    assertThat(new Convergence("events", 3, 0, 0, 5.0, 0.008, 0).project(3, 0).line("R"))
        .endsWith("the window is known once a second pass gives the rate of change");
  }
}
