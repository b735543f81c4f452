package io.ferry.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When a diff's older report leaves changes out: made after every key was last settled. */
class InventoryMarkTest {
  @ParameterizedTest(name = "settled as of {0}, older report made {1}: gap {2}")
  @CsvSource(textBlock = """
      0,    5000, false
      1000, 999,  false
      1000, 1000, false
      1000, 1001, true
      """)
  void aGapIsAnOlderReportMadeAfterTheMark(long created, long older, boolean gap) {
    assertThat(new InventoryMark("r", created).gapBefore(older)).isEqualTo(gap);
  }
}
