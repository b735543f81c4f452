package io.ferry.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Round ticks for the report's axes, as a boundary table. */
class TicksTest {
  @ParameterizedTest(name = "{0} in about {1}: step {2}")
  @CsvSource({
      "10, 5, 2", "9.9, 5, 2", "10.1, 5, 5", "100, 5, 20", "213, 5, 50", "1, 5, 0.2", "0.3, 5, 0.1", "0.05, 5, 0.01",
      "7, 7, 1", "1500, 4, 500", "0, 5, 1", "-3, 5, 1"})
  void theStepIsOneTwoOrFiveTimesAPowerOfTen(double max, int target, double step) {
    assertThat(Ticks.step(max, target)).isCloseTo(step, org.assertj.core.data.Offset.offset(1e-12));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {"10|0 2 4 6 8 10", "213|0 50 100 150 200", "0.3|0.0 0.1 0.2 0.3", "1|0.0 0.2 0.4 0.6 0.8 1.0"})
  void ticksRunFromZeroToTheEndWithLabelsAsPreciseAsTheirStep(double max, String labels) {
    List<Double> ticks = Ticks.of(max, 5);
    double step = Ticks.step(max, 5);
    assertThat(String.join(" ", ticks.stream().map(t -> Ticks.label(t, step)).toList())).isEqualTo(labels);
  }
}
