package io.ferry.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.store.StoreObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class VersionsTest {
  private static final String MD5_A = "0cc175b9c0f1b6a831c399e269772661";
  private static final String MD5_B = "92eb5ffee6ae2fec3ad71c777531578f";

  /**
   * A history as letters, oldest first: a, b, c... versions (each its own MD5 ETag, a size of its own letter), D a
   * delete marker, m a version copied in parts (a multipart ETag of the size of "a"), X a version only the
   * destination has (another writer's). "-" for none.
   */
  @ParameterizedTest(name = "source {0}, destination {1} -> write {2}, held {3}, conflict {4}")
  @CsvSource({
      // source, destination, to write, held, conflict
      "abc,   -,     abc,  0, false",   // a first run writes everything, oldest first
      "abc,   abc,   -,    3, false",   // a rerun writes nothing
      "abc,   ab,    c,    2, false",   // the version written since
      "abc,   a,     bc,   1, false",
      "aDb,   aD,    b,    2, false",   // written again after a delete
      "aD,    a,     D,    1, false",   // the delete marker written since
      "aDD,   aD,    -,    2, false",   // a marker over a marker marks nothing: left out
      "aDb,   aDDb,  -,    3, false",
      "bc,    abc,   -,    2, false",   // an old version expired at the source: passed over
      "bcd,   abc,   d,    2, false",
      "abc,   aX,    -,    1, true",    // another writer's latest: nothing written
      "abc,   X,     -,    0, true",
      "abc,   Xa,    bc,   1, false",   // another writer's, older than what is matched: passed over
      "abc,   aa,    bc,   1, false",   // a write retried after its answer was lost stands twice
      "abc,   abb,   c,    2, false",
      "abc,   ac,    -,    2, false",   // b was passed over at the destination: the history goes on after c
      "a,     D,     a,    0, false",   // a marker over nothing at the destination marks nothing
      "a,     aD,    -,    1, true",    // a marker the source never had
      "abDc,  aD,    -,    1, true",    // another writer's delete: it must not stand for b, which it would pass over
      "D,     -,     -,    0, false",   // nor one over nothing
      "DDa,   -,     a,    0, false",
      "aD,    -,     aD,   0, false",   // a marker over a version is
      "aab,   aa,    b,    2, false",   // two versions of the same bytes, then a kill or a failed write of b (issue 45)
      "aab,   a,     ab,   1, false",
      "aab,   aaa,   b,    2, false",   // ...and one of them written twice
      "aaab,  aa,    ab,   2, false",
  })
  void replayTable(String source, String destination, String toWrite, int held, boolean conflict) {
    Versions.Replay r = Versions.replay(history(source, "source"), history(destination, "copy"), Versions.Known.NONE);
    assertThat(letters(r.toWrite())).isEqualTo(toWrite);
    assertThat(r.held()).isEqualTo(held);
    assertThat(r.conflict() != null).isEqualTo(conflict);
  }

  /** Copies made in parts are known by their size alone: one is never taken for a version past the next. */
  @Test
  void aCopyKnownByItsSizeAloneMatchesTheNextVersionOnlyAndADuplicateFirst() {
    List<StoreObject> source = List.of(v("k", 5, "a-2", 1, 2), v("k", 5, "b-2", 2, 1), v("k", 5, "c-2", 3, 0));
    // the first version's copy, and the same copy again (a write retried): the second is no copy of the second version
    Versions.Replay r = Versions.replay(source, List.of(v("k", 5, "x-3", 10, 1), v("k", 5, "y-3", 11, 0)), Versions.Known.NONE);
    assertThat(r.toWrite()).extracting(StoreObject::etag).containsExactly("b-2", "c-2");
    assertThat(r.held()).isEqualTo(1);
    // a copy of another size where the next version is due: another writer's
    assertThat(Versions.replay(source, List.of(v("k", 5, "x-3", 10, 1), v("k", 6, "y-3", 11, 0)), Versions.Known.NONE).conflict())
        .isNotNull();
  }

  /**
   * What a replay wrote is known by the source version it came from (the ledger): copies of the same bytes, and copies
   * known by their size alone, replay exactly the source's history (issue 45).
   */
  @Test
  void aCopyTheLedgerKnowsIsTheSourceVersionItCameFromWhateverItsBytes() {
    List<StoreObject> aab = List.of(new StoreObject("k", "k", 1, md5('a'), 1).asVersion(2, false, "s0"),
        new StoreObject("k", "k", 1, md5('a'), 2).asVersion(1, false, "s1"),
        new StoreObject("k", "k", 2, md5('b'), 3).asVersion(0, false, "s2"));
    StoreObject c0 = new StoreObject("k", "k", 1, md5('a'), 10).asVersion(1, false, "c0");
    StoreObject c1 = new StoreObject("k", "k", 1, md5('a'), 11).asVersion(0, false, "c1");
    // the second copy of a's bytes is the first version again (a write retried): both versions of a are still due
    assertThat(letters(Versions.replay(aab, List.of(c0, c1), known(Map.of("c0", "s0", "c1", "s0"))).toWrite())).isEqualTo("ab");
    assertThat(letters(Versions.replay(aab, List.of(c0, c1), known(Map.of("c0", "s0", "c1", "s1"))).toWrite())).isEqualTo("b");
    assertThat(letters(Versions.replay(aab, List.of(c0, c1), known(Map.of("c0", "s0"))).toWrite())).as("c1's record lost to a kill")
        .isEqualTo("b");
    // known by size alone: the first attempt's answer was lost (no record), its retry recorded
    List<StoreObject> xy = List.of(v("k", 5, "x-2", 1, 1), v("k", 5, "y-2", 2, 0));
    StoreObject lost = new StoreObject("k", "k", 5, "p-3", 10).asVersion(1, false, "c0");
    StoreObject retried = new StoreObject("k", "k", 5, "q-3", 11).asVersion(0, false, "c1");
    assertThat(Versions.replay(xy, List.of(lost, retried), known(Map.of("c1", "v1"))).toWrite()).extracting(StoreObject::etag)
        .containsExactly("y-2");
    assertThat(Versions.replay(xy, List.of(lost, retried), known(Map.of("c0", "v1", "c1", "v2"))).toWrite()).isEmpty();
  }

  /**
   * A copy known by its size alone whose record a kill lost: taken for a duplicate of the version before, unless the
   * ledger shows the next version was being written (then it is that one's copy, and nothing is written twice).
   */
  @Test
  void aCopyKnownByItsSizeAloneIsTheNextVersionWhereTheLedgerShowsItWasBeingWritten() {
    List<StoreObject> xy = List.of(v("k", 5, "x-2", 1, 1), v("k", 5, "y-2", 2, 0));
    StoreObject x = new StoreObject("k", "k", 5, "p-3", 10).asVersion(1, false, "c0");
    StoreObject y = new StoreObject("k", "k", 5, "q-3", 11).asVersion(0, false, "c1");
    assertThat(Versions.replay(xy, List.of(x, y), known(Map.of("c0", "v1"))).toWrite()).as("written twice, never skipped")
        .extracting(StoreObject::etag).containsExactly("y-2");
    assertThat(Versions.replay(xy, List.of(x, y), new Versions.Known(Map.of("c0", "v1"), java.util.Set.of("v2"))).toWrite())
        .isEmpty();
  }

  private static Versions.Known known(Map<String, String> copies) {
    return new Versions.Known(copies, java.util.Set.of());
  }

  @Test
  void aCopyMadeInPartsMatchesBySizeAndAPlainCopyByItsMd5() {
    StoreObject source = v("k", 3, MD5_A, 1, 0);
    assertThat(Versions.matches(source, v("k", 3, "d41d8cd98f00b204e9800998ecf8427e-2", 0, 0))).isTrue();
    assertThat(Versions.matches(source, v("k", 3, MD5_B, 0, 0))).as("both MD5s, and they differ").isFalse();
    assertThat(Versions.matches(source, v("k", 4, "x-2", 0, 0))).as("another size").isFalse();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "a.txt,              a-v2024-01-31-120000-250.txt",
      "dir/a.tar.gz,       dir/a.tar-v2024-01-31-120000-250.gz",   // before the last extension, as rclone does
      "dir/README,         dir/README-v2024-01-31-120000-250",
      "dir/.hidden,        dir/.hidden-v2024-01-31-120000-250",    // a leading dot is no extension
      "d.ir/file,          d.ir/file-v2024-01-31-120000-250",      // nor a dot in a folder's name
      "trailing.,          trailing-v2024-01-31-120000-250.",
  })
  void olderVersionsAreNamedAsRcloneNamesThem(String key, String name) {
    long millis = java.time.Instant.parse("2024-01-31T12:00:00.250Z").toEpochMilli();
    assertThat(Versions.olderName(key, millis)).isEqualTo(name);
  }

  @Test
  void inADirectoryTheLatestKeepsItsKeyOlderOnesTheirOwnNamesAndMarkersNone() {
    long t = java.time.Instant.parse("2024-01-31T12:00:00Z").toEpochMilli();
    assertThat(Versions.inDirectory(new StoreObject("p/a.txt", "a.txt", 3, MD5_A, t).asVersion(0, false, "v3"))).get()
        .extracting(StoreObject::relativeKey, StoreObject::versionId).containsExactly("a.txt", "v3");
    assertThat(Versions.inDirectory(new StoreObject("p/a.txt", "a.txt", 3, MD5_A, t).asVersion(2, false, "v1"))).get()
        .extracting(StoreObject::relativeKey, StoreObject::key, StoreObject::versionId)
        .containsExactly("a-v2024-01-31-120000-000.txt", "p/a.txt", "v1");
    assertThat(Versions.inDirectory(new StoreObject("p/a.txt", "a.txt", 0, "", t).asVersion(0, true, "m"))).isEmpty();
    assertThat(Versions.inDirectory(new StoreObject("p/a.txt", "a.txt", 0, "", t).asVersion(1, true, "m"))).isEmpty();
  }

  @Test
  void olderVersionsOfOneTimeEachGetANameOfTheirOwnThatStays() {
    long t = java.time.Instant.parse("2024-01-31T12:00:00Z").toEpochMilli();
    List<StoreObject> history = List.of(
        new StoreObject("a.txt", "a.txt", 1, MD5_A, t + 5000).asVersion(0, false, "v4"),
        new StoreObject("a.txt", "a.txt", 1, MD5_A, t).asVersion(1, false, "v3"),
        new StoreObject("a.txt", "a.txt", 0, "", t).asVersion(2, true, "m"),
        new StoreObject("a.txt", "a.txt", 1, MD5_A, t).asVersion(3, false, "v2"),
        new StoreObject("a.txt", "a.txt", 1, MD5_A, t).asVersion(4, false, "v1"));
    List<StoreObject> placed = new ArrayList<>(history);
    java.util.Collections.shuffle(placed, new java.util.Random(7)); // in any order, named by age
    assertThat(Versions.inDirectory(placed)).extracting(StoreObject::relativeKey, StoreObject::versionId).containsExactly(
        org.assertj.core.groups.Tuple.tuple("a-v2024-01-31-120000-000.txt", "v1"),
        org.assertj.core.groups.Tuple.tuple("a-v2024-01-31-120000-000-v2.txt", "v2"),
        org.assertj.core.groups.Tuple.tuple("a-v2024-01-31-120000-000-v3.txt", "v3"),
        org.assertj.core.groups.Tuple.tuple("a.txt", "v4"));
    // a version id with characters a file name does without
    assertThat(Versions.inDirectory(List.of(new StoreObject("a.txt", "a.txt", 1, MD5_A, t).asVersion(2, false, "p"),
        new StoreObject("a.txt", "a.txt", 1, MD5_A, t).asVersion(1, false, "x/y+z")))).extracting(StoreObject::relativeKey)
        .contains("a-v2024-01-31-120000-000-x_y_z.txt");
  }

  @Test
  void aVersionKeepsItsIdentityAsNewerOnesArrive() {
    StoreObject latest = new StoreObject("k", "k", 3, MD5_A, 5).asVersion(0, false, "id:with:colons");
    StoreObject older = new StoreObject("k", "k", 3, MD5_A, 5).asVersion(4, false, "id:with:colons");
    assertThat(older.identity()).isEqualTo(latest.identity());
    assertThat(older.versionId()).isEqualTo("id:with:colons");
    assertThat(older.age()).isEqualTo(4);
    assertThat(older.isDeleteMarker()).isFalse();
    StoreObject marker = new StoreObject("k", "k", 9, MD5_A, 5).asVersion(1, true, "m");
    assertThat(marker.isDeleteMarker()).isTrue();
    assertThat(marker.size()).isZero();
    assertThat(new StoreObject("k", "k", 3, MD5_A, 5).versionId()).isEmpty();
    assertThat(new StoreObject("k", "k", 3, MD5_A, 5).isVersion()).isFalse();
  }

  /** Letters as versions, oldest first; ages count from the newest. */
  private static List<StoreObject> history(String letters, String side) {
    if (letters.equals("-")) return List.of();
    List<StoreObject> out = new ArrayList<>();
    int n = letters.length();
    for (int i = 0; i < n; i++) {
      char c = letters.charAt(i);
      int age = n - 1 - i;
      String id = side + i;
      if (c == 'D') {
        out.add(new StoreObject("k", "k", 0, "", i).asVersion(age, true, id));
      } else if (c == 'X') {
        out.add(v("k", 99, "f".repeat(32), i, age));
      } else {
        out.add(new StoreObject("k", "k", c - 'a' + 1, md5(c), i).asVersion(age, false, id));
      }
    }
    java.util.Collections.reverse(out); // in any order: replay sorts them
    return out;
  }

  private static StoreObject v(String key, long size, String etag, long millis, int age) {
    return new StoreObject(key, key, size, etag, millis).asVersion(age, false, "v" + millis);
  }

  private static String md5(char c) {
    return String.valueOf(c).repeat(32).replaceAll("[^0-9a-f]", "e");
  }

  private static String letters(List<StoreObject> versions) {
    if (versions.isEmpty()) return "-";
    StringBuilder b = new StringBuilder();
    for (StoreObject o : versions) b.append(o.isDeleteMarker() ? 'D' : (char) ('a' + o.size() - 1));
    return b.toString();
  }
}
