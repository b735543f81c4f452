package io.ferry.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.store.ByteRange;
import io.ferry.store.StoreObject;
import io.ferry.store.checksums.Checksum;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The verdicts a pair gets from the listings alone, when its bytes must be read, and what reading its ranges proves. */
class ComparisonTest {
  private static final String MD5 = "0123456789abcdef0123456789abcdef";

  private static StoreObject object(long size, String etag) {
    return new StoreObject("k", "k", size, etag, 0);
  }

  private static StoreObject archived(long size, String etag) {
    return StoreObject.archived("k", "k", size, etag, 0, "GLACIER", false);
  }

  @Test
  void eachPairIsSettledByTheListingsWhereTheyCanSettleItAndArchivedSourcesAreNeverRead() {
    assertThat(Comparison.withoutReading(object(3, MD5), null).status()).isEqualTo(Comparison.Status.MISSING);
    assertThat(Comparison.withoutReading(null, object(3, MD5)).status()).isEqualTo(Comparison.Status.EXTRA);
    assertThat(Comparison.withoutReading(object(3, MD5), object(4, MD5)).status()).isEqualTo(Comparison.Status.SIZE_DIFFERS);
    assertThat(Comparison.withoutReading(object(3, MD5), object(3, MD5)).method()).isEqualTo("etag-md5");
    assertThat(Comparison.withoutReading(object(3, MD5), object(3, ""))).as("read both").isNull();
    assertThat(Comparison.withoutReading(object(3, "abc-2"), object(3, "abc-2"))).as("multipart ETags: read both").isNull();
    assertThat(Comparison.withoutReading(object(3, MD5.toUpperCase(Locale.ROOT)), object(3, MD5))).satisfies(r -> {
      assertThat(r.proven()).isTrue();
      assertThat(r.sourceChecksum()).isEqualTo("md5:" + MD5).isEqualTo(r.destinationChecksum());
    });
    // archived: the sizes agree and nothing more can be known, as nothing can be read: no proof
    assertThat(Comparison.withoutReading(archived(3, "abc-2"), object(3, ""))).satisfies(r -> {
      assertThat(r.status()).isEqualTo(Comparison.Status.UNPROVEN);
      assertThat(r.method()).isEqualTo("size-archived");
      assertThat(r.detail()).contains("GLACIER");
      assertThat(r.proven()).isFalse();
    });
    assertThat(Comparison.withoutReading(archived(3, MD5), object(3, MD5)).method()).isEqualTo("etag-md5");
    assertThat(Comparison.withoutReading(archived(3, MD5), object(5, "")).status()).isEqualTo(Comparison.Status.SIZE_DIFFERS);
    assertThat(Comparison.withoutReading(archived(3, MD5), null)).satisfies(r -> {
      assertThat(r.status()).isEqualTo(Comparison.Status.MISSING);
      assertThat(r.destination()).isNull();
      assertThat(r.proven()).isFalse();
    });
    assertThat(Comparison.withoutReading(null, object(3, MD5))).satisfies(r -> {
      assertThat(r.source()).isNull();
      assertThat(r.destination()).isNotNull();
    });
  }

  /** Ranges of {@code bytes} of {@code partSize} each, as verify plans them, read on both sides; part {@code flipped} differs. */
  private static List<Comparison.Range> read(byte[] bytes, int partSize, int flipped) {
    StoreObject o = object(bytes.length, "");
    List<Comparison.Range> ranges = new ArrayList<>();
    int parts = Math.max(1, (bytes.length + partSize - 1) / partSize);
    for (int part = 1; part <= parts; part++) {
      long offset = (long) (part - 1) * partSize;
      int length = (int) Math.min(partSize, bytes.length - offset);
      CRC32C source = new CRC32C();
      source.update(bytes, (int) offset, length);
      CRC32C destination = new CRC32C();
      destination.update(bytes, (int) offset, length);
      if (part == flipped) destination.update(1);
      ranges.add(new Comparison.Range(new Comparison.Check(o, o, part, parts, new ByteRange(offset, length)),
          part == flipped ? Comparison.Status.CONTENT_DIFFERS : Comparison.Status.MATCH, part == flipped ? "part " + part : "",
          source.getValue(), destination.getValue(), 2L * length));
    }
    Collections.reverse(ranges); // as a shuffle may hand them over
    return ranges;
  }

  @Test
  void eachSidesChecksumOfTheWholeIsCombinedFromItsRangesInAnyOrder() {
    byte[] bytes = new byte[1000];
    new Random(7).nextBytes(bytes);
    CRC32C whole = new CRC32C();
    whole.update(bytes);
    String expected = "crc32c:" + Checksum.encode(whole.getValue(), 4);
    // boundary table: part sizes that give 1 part, an exact multiple, a short last part, and one byte per part
    for (int partSize : new int[] {1000, 4096, 100, 333, 999, 1}) {
      Comparison.Result r = Comparison.whole(read(bytes, partSize, 0));
      assertThat(r.sourceChecksum()).as("part size %d", partSize).isEqualTo(expected).isEqualTo(r.destinationChecksum());
      assertThat(r.status()).isEqualTo(Comparison.Status.MATCH);
      assertThat(r.parts()).isEqualTo(Math.max(1, (1000 + partSize - 1) / partSize));
      assertThat(r.bytesRead()).isEqualTo(2000);
      assertThat(r.proven()).isTrue();
    }
    Comparison.Result empty = Comparison.whole(read(new byte[0], 100, 0));
    assertThat(empty.sourceChecksum()).isEqualTo("crc32c:AAAAAA==").isEqualTo(empty.destinationChecksum());
    assertThat(empty.proven()).isTrue();
  }

  @Test
  void aRangeThatDiffersOrCouldNotBeReadDecidesTheVerdictAndNoProofIsGiven() {
    byte[] bytes = new byte[1000];
    new Random(8).nextBytes(bytes);
    Comparison.Result differs = Comparison.whole(read(bytes, 300, 2));
    assertThat(differs.status()).isEqualTo(Comparison.Status.CONTENT_DIFFERS);
    assertThat(differs.detail()).isEqualTo("part 2");
    assertThat(differs.sourceChecksum()).isNotEqualTo(differs.destinationChecksum());
    assertThat(differs.proven()).isFalse();

    List<Comparison.Range> ranges = new ArrayList<>(read(bytes, 300, 0));
    Comparison.Range first = ranges.remove(ranges.size() - 1);
    ranges.add(new Comparison.Range(first.check(), Comparison.Status.UNREADABLE, "503 Slow Down", -1, -1, 0));
    Comparison.Result unreadable = Comparison.whole(ranges);
    assertThat(unreadable.status()).isEqualTo(Comparison.Status.UNREADABLE);
    assertThat(unreadable.sourceChecksum()).isEmpty();
    assertThat(unreadable.proven()).isFalse();
    assertThatThrownBy(() -> Comparison.whole(ranges.subList(1, ranges.size()))).as("a range missing")
        .isInstanceOf(IllegalArgumentException.class);
    List<Comparison.Range> twice = new ArrayList<>(read(bytes, 500, 0));
    twice.set(0, twice.get(1)); // part 1 twice, part 2 never: as many ranges as parts, and still not the object
    assertThatThrownBy(() -> Comparison.whole(twice)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("once each");
  }

  @Test
  void theChecksumsBothStoresKeepSettleAPairOnlyWhereTheyAreOfOneAlgorithmAndOfTheWholeObject() {
    StoreObject o = object(3, "abc-2");
    Checksum crc = new Checksum(Checksum.Algorithm.CRC32C, "AAAAAQ==", false);
    Checksum other = new Checksum(Checksum.Algorithm.CRC32C, "AAAAAg==", false);
    Checksum sha = new Checksum(Checksum.Algorithm.SHA256, "AAAAAQ==", false);
    Checksum composite = new Checksum(Checksum.Algorithm.CRC32C, "AAAAAQ==-2", true);
    assertThat(Comparison.byStoredChecksums(o, null, o, crc)).isNull();
    assertThat(Comparison.byStoredChecksums(o, crc, o, null)).isNull();
    assertThat(Comparison.byStoredChecksums(o, crc, o, sha)).as("another algorithm").isNull();
    assertThat(Comparison.byStoredChecksums(o, composite, o, composite)).as("of the parts, not the bytes").isNull();
    assertThat(Comparison.byStoredChecksums(o, crc, o, composite)).isNull();
    Checksum md5 = new Checksum(Checksum.Algorithm.MD5, "0123456789abcdef0123456789abcdef", false);
    Checksum otherMd5 = new Checksum(Checksum.Algorithm.MD5, "fedcba9876543210fedcba9876543210", false);
    assertThat(Comparison.byStoredChecksums(o, md5, o, otherMd5)).as("ETags: the listings' business, and not always of the bytes")
        .isNull();
    assertThat(Comparison.byStoredChecksums(o, crc, o, crc)).satisfies(r -> {
      assertThat(r.status()).isEqualTo(Comparison.Status.MATCH);
      assertThat(r.method()).isEqualTo("stored-crc32c");
      assertThat(r.proven()).isTrue();
      assertThat(r.bytesRead()).isZero();
    });
    assertThat(Comparison.byStoredChecksums(o, crc, o, other)).satisfies(r -> {
      assertThat(r.status()).isEqualTo(Comparison.Status.CONTENT_DIFFERS);
      assertThat(r.detail()).isEqualTo("stored crc32c: source AAAAAQ==, destination AAAAAg==");
      assertThat(r.proven()).isFalse();
    });
  }
}
