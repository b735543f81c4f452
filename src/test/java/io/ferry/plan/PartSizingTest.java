package io.ferry.plan;

import io.ferry.store.ByteRange;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class PartSizingTest {
  private static final long P = 8L << 20; // part size used by the tables
  private static final long MIB = 1L << 20;

  @ParameterizedTest(name = "size {0} -> {1} parts, last part {2} bytes")
  @CsvSource({
      // size,             parts, last part length
      "0,                  1,     0",
      "1,                  1,     1",
      "8388607,            1,     8388607",  // part - 1
      "8388608,            1,     8388608",  // part
      "8388609,            2,     1",        // part + 1
      "16777215,           2,     8388607",  // 2 part - 1
      "16777216,           2,     8388608",  // 2 part
      "16777217,           3,     1",        // 2 part + 1
      "83886079,           10,    8388607",  // 10 part - 1
      "83886081,           11,    1",        // 10 part + 1
  })
  void partsAndLastPart(long size, int parts, long lastLength) {
    assertThat(PartSizing.partCount(size, P)).isEqualTo(parts);
    ByteRange last = PartSizing.part(size, P, parts);
    assertThat(last.length()).isEqualTo(lastLength);
    assertThat(last.offset() + last.length()).isEqualTo(size);
  }

  @ParameterizedTest(name = "size {0}: parts tile the object exactly")
  @CsvSource({"0", "1", "8388607", "8388608", "8388609", "25165825", "100000000"})
  void partsTileTheObjectWithoutGapsOrOverlap(long size) {
    int parts = PartSizing.partCount(size, P);
    long next = 0;
    for (int n = 1; n <= parts; n++) {
      ByteRange r = PartSizing.part(size, P, n);
      assertThat(r.offset()).as("part %d starts where part %d ended", n, n - 1).isEqualTo(next);
      if (n < parts) assertThat(r.length()).isEqualTo(P);
      next = r.offset() + r.length();
    }
    assertThat(next).isEqualTo(size);
  }

  @ParameterizedTest(name = "object {0}, target {1} -> part size {2}")
  @CsvSource({
      // object size,          target,     expected part size
      "0,                      67108864,   67108864",
      "671088640000,           67108864,   67108864",     // exactly 10,000 parts of 64 MiB: no growth
      "671088640001,           67108864,   68157440",     // one byte more: grows to the next MiB (65 MiB)
      "5497558138880,          67108864,   550502400",    // 5 TiB: 525 MiB parts, within 10,000
      "52428800000,            5242880,    5242880",      // 10,000 parts of 5 MiB exactly
      "52428800001,            5242880,    6291456",
  })
  void partSizeGrowsToStayWithinTenThousandParts(long size, long target, long expected) {
    long partSize = PartSizing.partSize(size, target, PartSizing.MAX_PARTS);
    assertThat(partSize).isEqualTo(expected);
    assertThat(PartSizing.partCount(size, partSize)).isLessThanOrEqualTo(PartSizing.MAX_PARTS);
    assertThat(partSize % MIB == 0 || partSize == target).isTrue();
  }

  @Test
  void rejectsPartsOutsideTheObject() {
    assertThatThrownBy(() -> PartSizing.part(10, 4, 4)).hasMessageContaining("part 4 is outside 1..3");
    assertThatThrownBy(() -> PartSizing.part(10, 4, 0)).hasMessageContaining("outside");
    assertThatThrownBy(() -> PartSizing.partCount(-1, 4)).hasMessageContaining("negative");
  }

  @Test
  void httpRangeIsInclusive() {
    assertThat(new ByteRange(0, 1).httpRange()).isEqualTo("bytes=0-0");
    assertThat(new ByteRange(8388608, 8388608).httpRange()).isEqualTo("bytes=8388608-16777215");
    assertThat(new ByteRange(100, 50).skip(20)).isEqualTo(new ByteRange(120, 30));
    assertThatThrownBy(() -> new ByteRange(5, 0).httpRange()).isInstanceOf(IllegalStateException.class);
  }

  /** Parts as "number:offset+length", separated by spaces. */
  private static java.util.SortedMap<Integer, ByteRange> parts(String text) {
    java.util.SortedMap<Integer, ByteRange> parts = new java.util.TreeMap<>();
    for (String p : text.trim().split("\\s+")) {
      if (p.isEmpty()) continue;
      String[] n = p.split("[:+]");
      parts.put(Integer.parseInt(n[0]), new ByteRange(Long.parseLong(n[1]), Long.parseLong(n[2])));
    }
    return parts;
  }

  @ParameterizedTest(name = "{0} bytes in {1} parts [{2}]: {3}")
  @CsvSource(delimiter = '|', value = {
      // size,  parts, the parts,                  the problem ("" when they tile it)
      "100      | 2 | 1:0+64 2:64+36            | ''",
      "0        | 1 | 1:0+0                      | ''",
      "1        | 1 | 1:0+1                      | ''",
      "100      | 2 | 1:0+64 2:60+40            | part 2 starts at byte 60, not at 64 where part 1 ends",
      "109      | 2 | 1:0+64 2:60+45            | part 2 starts at byte 60, not at 64 where part 1 ends",
      "100      | 2 | 1:0+64 2:64+35            | the parts end at byte 99, the object at 100",
      "100      | 2 | 1:0+64 2:64+37            | the parts end at byte 101, the object at 100",
      "100      | 2 | 1:0+64                     | 1 parts for an object of 2",
      "100      | 2 | 1:0+64 3:64+36            | part 2 is missing",
      "100      | 3 | 1:0+64 2:64+0 3:64+36     | part 2 is empty",
      "100      | 1 | 1:1+99                     | part 1 starts at byte 1, not at 0 where part 0 ends",
  })
  void thePartsMustTileTheObjectExactlyBeforeACompletion(long size, int count, String given, String problem) {
    String found = PartSizing.tilingProblem(size, count, parts(given));
    if (problem.isEmpty()) assertThat(found).isNull(); else assertThat(found).isEqualTo(problem);
  }

  /** Objects as "count x MiB" terms joined by '+', into {@link PartSizing#auto}'s size classes. */
  private static long[] bySize(String objects) {
    long[] classes = new long[64];
    for (String term : objects.split("\\+")) {
      String[] t = term.trim().split("x");
      long size = (long) (Double.parseDouble(t[1].trim()) * MIB);
      classes[PartSizing.sizeClass(size)] += Long.parseLong(t[0].trim()) * size;
    }
    return classes;
  }

  @ParameterizedTest(name = "{0}: {1} on {2} streams, first byte {3} ms at {4} MB/s -> {5} MiB")
  @CsvSource(delimiter = '|', value = {
      // the bench's WAN large: a first byte's wait is 1 MB, so at least 64 MiB; 2 GiB gives 32 streams 64 MiB parts
      "WAN large          | 2 x 1024              | 32 | 25  | 40  | 64",
      // loopback: 32 MiB would do for the wait, and the two objects still give every stream a part of 64 MiB
      "direct large       | 2 x 1024              | 32 | 3   | 200 | 64",
      // one large object among small ones: 32 MiB parts are the largest that give all 32 streams one
      "direct mixed       | 1 x 1024 + 1000 x 1   | 32 | 3   | 200 | 32",
      "WAN mixed          | 1 x 1024 + 1000 x 1   | 32 | 25  | 40  | 64",
      "one huge object    | 1 x 102400            | 64 | 25  | 40  | 512",
      // nothing to split: the least size the wait allows (every object whole)
      "small objects only | 2000 x 0.25           | 32 | 3   | 200 | 32",
      "a slow first byte  | 2 x 1024              | 32 | 200 | 100 | 512",
      "no wait at all     | 2 x 1024              | 32 | 0   | 200 | 64",
      "no wait, 8 streams | 1 x 64                | 8  | 0   | 200 | 8",
      "not measured       | 2 x 1024              | 16 | NaN | NaN | 128",
      "not measured, few  | 1 x 100               | 32 | NaN | NaN | 64",
  })
  void autoChoosesTheLargestPartThatKeepsEveryStreamBusyAndNeverOneMostlyWaiting(String workload, String objects, long streams,
      double firstByteMs, double mbps, long expectedMiB) {
    assertThat(PartSizing.auto(bySize(objects), streams, firstByteMs / 1000, mbps * 1e6, 64 * MIB)).isEqualTo(expectedMiB * MIB);
  }

  @ParameterizedTest(name = "an object of {0} bytes is in size class {1}")
  @CsvSource({"0, 0", "1, 0", "2, 1", "3, 1", "8388607, 22", "8388608, 23", "9223372036854775807, 62"})
  void sizeClassesArePowersOfTwo(long size, int sizeClass) {
    assertThat(PartSizing.sizeClass(size)).isEqualTo(sizeClass);
  }
}
