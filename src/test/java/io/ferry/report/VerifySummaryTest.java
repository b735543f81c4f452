package io.ferry.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When verify passes: a comparison allows extras and archived objects compared by size; a manifest passes only on proof. */
class VerifySummaryTest {
  private static final VerifySummary.Sides LISTED = new VerifySummary.Sides(3, 30, 4, 40);

  private static VerifySummary summary(Map<String, Long> objects, VerifySummary.Sides rows, VerifySummary.Manifest manifest) {
    return new VerifySummary(VerifySummary.NAME, VerifySummary.VERSION, "j", "r", "s", "d", "t", 1.0, objects, 0, List.of(), "p", LISTED,
        rows, manifest);
  }

  private static VerifySummary.Manifest proving(long proven) {
    return new VerifySummary.Manifest("p/manifest.parquet", 4, proven, "00");
  }

  @Test
  void aComparisonPassesWhereNothingDiffersAndAManifestOnlyWhereEverySourceObjectIsProvenAndTheRowsReconcile() {
    // objects by status, rows, manifest: passed
    record Case(Map<String, Long> objects, VerifySummary.Sides rows, VerifySummary.Manifest manifest, boolean passed) {}
    for (Case c : List.of(
        new Case(Map.of("MATCH", 3L, "EXTRA", 1L), LISTED, null, true),
        new Case(Map.of("MATCH", 2L, "UNPROVEN", 1L, "EXTRA", 1L), LISTED, null, true),
        new Case(Map.of("MATCH", 2L, "MISSING", 1L), LISTED, null, false),
        new Case(Map.of("MATCH", 2L, "CONTENT_DIFFERS", 1L), LISTED, null, false),
        new Case(Map.of("MATCH", 2L, "UNREADABLE", 1L, "SIZE_DIFFERS", 0L), LISTED, null, false),
        new Case(Map.of("MATCH", 3L, "EXTRA", 1L), LISTED, proving(3), true),
        new Case(Map.of("MATCH", 2L, "UNPROVEN", 1L, "EXTRA", 1L), LISTED, proving(2), false),
        new Case(Map.of("MATCH", 3L, "EXTRA", 1L), new VerifySummary.Sides(2, 20, 4, 40), proving(3), false),
        new Case(Map.of("MATCH", 3L, "EXTRA", 1L), new VerifySummary.Sides(3, 30, 3, 40), proving(3), false))) {
      assertThat(summary(c.objects(), c.rows(), c.manifest()).passed()).as(c.toString()).isEqualTo(c.passed());
    }
  }

  @Test
  void sidesAddUp() {
    assertThat(VerifySummary.Sides.NONE.plus(LISTED).plus(new VerifySummary.Sides(1, 2, 3, 4)))
        .isEqualTo(new VerifySummary.Sides(4, 32, 7, 44));
  }
}
