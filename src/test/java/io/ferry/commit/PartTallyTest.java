package io.ferry.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.copy.RangeResult;
import io.ferry.store.StoreObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BinaryOperator;
import org.junit.jupiter.api.Test;

/** reduceByKey merges the ranges of an object in any grouping and order: merge must be associative and commutative. */
class PartTallyTest {
  private static final StoreObject OBJECT = new StoreObject("k", "k", 400, "e", 0);

  private static PartTally range(int part, boolean ok, String error) {
    return range(part, ok, error, "upload-9");
  }

  private static PartTally range(int part, boolean ok, String error, String upload) {
    return PartTally.of(RangeResult.of(OBJECT, part == 1 ? "dest/k" : "").task(0).part(part, 4, (part - 1) * 100L, 100).bytes(ok ? 100
        : 30, 100)
        .times(0, 0, 0, 0).attempts(1).by("m", "0", "h").error(ok ? "" : error)
        .digests("0000000" + part, "crc32c:AAAAA" + part + "==", part == 2 ? "crc32c:expected" : "").upload(upload, ok ? "etag-" + part
        : "").build());
  }

  @Test
  void partsOfTwoOpeningsOfAnObjectNeverMakeIt() {
    List<PartTally> ranges = List.of(range(1, true, "", "upload-9"), range(2, true, "", "upload-7"), range(3, true, "", "upload-9"),
        range(4, true, "", "upload-9"));
    PartTally expected = ranges.stream().reduce(PartTally::merge).orElseThrow();
    Random random = new Random(7);
    for (int trial = 0; trial < 50; trial++) {
      List<PartTally> shuffled = new ArrayList<>(ranges);
      java.util.Collections.shuffle(shuffled, random);
      assertThat(reduceRandomly(shuffled, PartTally::merge, random)).isEqualTo(expected);
    }
    assertThat(expected.complete()).isFalse();
    assertThat(expected.firstError()).isEqualTo("parts went to two openings of the object (upload-7, upload-9)");
  }

  private static final List<PartTally> RANGES = List.of(range(1, true, ""), range(2, false, "reset"), range(3, true, ""),
      range(4, false, "AccessDenied"), range(2, true, ""));

  @Test
  void mergeIsAssociativeAndCommutativeOverEveryGroupingTried() {
    PartTally expected = RANGES.stream().reduce(PartTally::merge).orElseThrow();
    BinaryOperator<PartTally> merge = PartTally::merge;
    Random random = new Random(42);
    for (int trial = 0; trial < 200; trial++) {
      List<PartTally> shuffled = new ArrayList<>(RANGES);
      java.util.Collections.shuffle(shuffled, random);
      assertThat(reduceRandomly(shuffled, merge, random)).isEqualTo(expected);
    }
    assertThat(expected.parts().keySet()).containsExactly(1, 2, 3);
    assertThat(expected.expected()).as("the source's checksum, from whichever range carried it").isEqualTo("crc32c:expected");
    assertThat(expected.bytes()).isEqualTo(100 + 30 + 100 + 30 + 100);
    assertThat(expected.firstError()).isEqualTo("part 2 of 4: reset").as("the least error by string order, whatever the order");
    assertThat(expected.location()).isEqualTo("dest/k");
    assertThat(expected.upload().id()).isEqualTo("upload-9");
    assertThat(expected.complete()).isFalse();
  }

  private static PartTally digested(int part, String digest) {
    PartTally t = range(part, true, "");
    return new PartTally(t.object(), t.location(), t.partCount(), t.uploadId(), t.expected(), t.method(), t.parts(), t.bytes(),
        t.firstError(), digest);
  }

  @Test
  void theObjectsInOrderDigestIsTheOneAnyRangeCarriedAndTwoThatDifferAreNotTrusted() {
    List<PartTally> one = List.of(range(1, true, ""), digested(2, "md5:a crc32c:1"), range(3, true, ""),
        digested(4, "md5:a crc32c:1"));
    List<PartTally> two = List.of(range(1, true, ""), digested(2, "md5:a crc32c:1"),
        digested(3, "md5:b crc32c:2"), range(4, true, ""));
    Random random = new Random(3);
    for (int trial = 0; trial < 100; trial++) {
      for (List<PartTally> ranges : List.of(one, two)) {
        List<PartTally> shuffled = new ArrayList<>(ranges);
        java.util.Collections.shuffle(shuffled, random);
        assertThat(reduceRandomly(shuffled, PartTally::merge, random).objectDigest())
            .isEqualTo(ranges == one ? "md5:a crc32c:1" : PartTally.CONFLICTING);
      }
    }
  }

  /** Merges a list as a random tree of partial merges, as partitions and a shuffle would. */
  private static PartTally reduceRandomly(List<PartTally> items, BinaryOperator<PartTally> merge, Random random) {
    if (items.size() == 1) return items.get(0);
    int split = 1 + random.nextInt(items.size() - 1);
    return merge.apply(reduceRandomly(items.subList(0, split), merge, random), reduceRandomly(items.subList(split, items.size()), merge,
        random));
  }

  @Test
  void anObjectIsCompleteOnlyWhenEveryPartArrivedAndNoneFailed() {
    PartTally all = range(1, true, "").merge(range(2, true, "")).merge(range(3, true, "")).merge(range(4, true, ""));
    assertThat(all.complete()).isTrue();
    assertThat(all.receipts()).containsOnlyKeys(1, 2, 3, 4);
    assertThat(range(1, true, "").merge(range(2, true, "")).complete()).isFalse();
    assertThat(all.merge(range(3, false, "late failure")).complete()).as("a failed attempt of a part that also succeeded").isFalse();
  }
}
