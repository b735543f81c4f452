package io.ferry.changes;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.store.StoreObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which keys two inventories say changed: a boundary table of their rows. */
class InventoryDiffTest {
  private static StoreObject row(String spec) {
    if (spec.equals("none")) return null;
    String[] f = spec.split(":", -1); // size:etag:modified
    return new StoreObject("k", "k", Long.parseLong(f[0]), f[1], Long.parseLong(f[2]));
  }

  @ParameterizedTest(name = "{0} -> {1}: {2}")
  @CsvSource(delimiter = '|', textBlock = """
      none       | none       | false
      none       | 10:e1:100  | true
      10:e1:100  | none       | true
      10:e1:100  | 10:e1:100  | false
      10:e1:100  | 11:e1:100  | true
      10:e1:100  | 10:e2:100  | true
      10:e1:100  | 10:e1:101  | true
      10::100    | 10:e2:100  | false
      10:e1:0    | 10:e1:101  | false
      10::0      | 10::0      | false
      0:e1:100   | 0:e1:100   | false
      """)
  void aKeyChangedWhenOnlyOneReportNamesItOrItsRowsDiffer(String older, String newer, boolean changed) {
    assertThat(InventoryDiff.changed(row(older), row(newer))).isEqualTo(changed);
  }
}
