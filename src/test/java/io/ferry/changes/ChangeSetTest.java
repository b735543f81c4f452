package io.ferry.changes;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.changes.ChangeEvents.Change;
import io.ferry.changes.ChangeEvents.Kind;
import io.ferry.config.Selection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which changes a delta pass looks at: the source's bucket, under its prefix, selected; the latest of each key. */
class ChangeSetTest {
  private static final Selection JOB = new Selection(List.of("docs/", "logs/"), List.of("**"), List.of("**/*.tmp"), 0, Long.MAX_VALUE,
      Long.MIN_VALUE, Long.MAX_VALUE);

  private static Change put(String bucket, String key, String sequencer) {
    return new Change(bucket, key, Kind.WRITTEN, "", "e", 1, sequencer);
  }

  private static Change removed(String key, String sequencer) {
    return new Change("media", key, Kind.REMOVED, "", "", -1, sequencer);
  }

  @ParameterizedTest(name = "{0}/{1} -> {2}")
  @CsvSource(delimiter = '|', textBlock = """
      media  | 2024/docs/a.txt      | docs/a.txt
      media  | 2024/logs/x/y.log    | logs/x/y.log
      media  | 2024/docs/a.tmp      | unselected
      media  | 2024/photos/p.jpg    | unselected
      media  | 2024/                | unselected
      media  | 2023/docs/a.txt      | elsewhere
      media  | 2024docs/a.txt       | elsewhere
      other  | 2024/docs/a.txt      | elsewhere
      """)
  void aChangeIsLookedUpOnlyInsideTheJobsSelection(String bucket, String key, String outcome) {
    ChangeSet set = ChangeSet.of(List.of(put(bucket, key, "01")), "media", "2024/", JOB);
    switch (outcome) {
      case "elsewhere" -> assertThat(set.elsewhere()).isEqualTo(1);
      case "unselected" -> assertThat(set.unselected()).isEqualTo(1);
      default -> assertThat(set.changes()).containsOnlyKeys(outcome);
    }
    assertThat(set.read()).isEqualTo(1);
  }

  @Test
  void theLatestChangeOfAKeyWinsHoweverTheEventsArrive() {
    Change first = put("media", "docs/a", "0055AED6DCD90281E5");
    Change removal = removed("docs/a", "0055AED6DCD90281E6");
    Change shorter = put("media", "docs/a", "0055AED6DCD903"); // later once padded with zeros
    assertThat(ChangeSet.of(List.of(first, removal), "media", "", JOB).changes()).isEqualTo(Map.of("docs/a", removal));
    assertThat(ChangeSet.of(List.of(removal, first), "media", "", JOB).changes()).isEqualTo(Map.of("docs/a", removal));
    assertThat(ChangeSet.of(List.of(removal, shorter, first), "media", "", JOB).changes()).isEqualTo(Map.of("docs/a", shorter));
    ChangeSet twice = ChangeSet.of(List.of(first, first, removal), "media", "", JOB);
    assertThat(twice.superseded()).isEqualTo(2);
    assertThat(twice.removed()).isEqualTo(1);
  }

  @Test
  void withoutSequencersTheChangeReadLastWins() {
    Change a = put("media", "docs/a", "");
    Change b = removed("docs/a", "");
    assertThat(ChangeSet.of(List.of(a, b), "media", "", JOB).changes()).isEqualTo(Map.of("docs/a", b));
    assertThat(ChangeSet.of(List.of(b, a), "media", "", JOB).changes()).isEqualTo(Map.of("docs/a", a));
  }
}
