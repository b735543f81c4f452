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
    return new VerifySummary.Manifest("p/manifest.parquet", 4, proven, 0, "00");
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
        new Case(Map.of("MATCH", 3L, "EXTRA", 1L), new VerifySummary.Sides(3, 30, 3, 40), proving(3), false),
        new Case(Map.of("MATCH", 3L, "EXTRA", 1L), LISTED, new VerifySummary.Manifest("p", 4, 3, 1, "00"), false))) {
      assertThat(summary(c.objects(), c.rows(), c.manifest()).passed()).as(c.toString()).isEqualTo(c.passed());
    }
  }

  @Test
  void aSourceThatListsNothingProvesNothing() {
    VerifySummary.Sides none = new VerifySummary.Sides(0, 0, 2, 20);
    VerifySummary empty = new VerifySummary(VerifySummary.NAME, VerifySummary.VERSION, "j", "r", "s", "d", "t", 1.0, Map.of("EXTRA", 2L),
        0, List.of(), "p", none, none, new VerifySummary.Manifest("p", 2, 0, 0, "00"));
    assertThat(empty.reconciled()).isTrue();
    assertThat(empty.proven()).isFalse();
    assertThat(empty.matches()).as("a comparison of nothing finds no difference").isTrue();
  }

  @Test
  void talliesOfPartsAddUp() {
    VerifySummary.Tally a = new VerifySummary.Tally(Map.of("MATCH", 2L), 2, 10, new VerifySummary.Sides(2, 5, 2, 5), 0);
    VerifySummary.Tally b = new VerifySummary.Tally(Map.of("MATCH", 1L, "EXTRA", 1L), 1, 4, new VerifySummary.Sides(1, 2, 2, 3), 1);
    assertThat(a.plus(b)).isEqualTo(new VerifySummary.Tally(Map.of("MATCH", 3L, "EXTRA", 1L), 3, 14, new VerifySummary.Sides(3, 7, 4, 8),
        1));
  }

  @Test
  void sidesAddUp() {
    assertThat(VerifySummary.Sides.NONE.plus(LISTED).plus(new VerifySummary.Sides(1, 2, 3, 4)))
        .isEqualTo(new VerifySummary.Sides(4, 32, 7, 44));
  }
}
