package io.ferry.copy;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.store.ByteRange;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.checksums.Checksum;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An object's MD5 taken in order as its parts land, against the MD5 of its bytes, whatever order and threads. */
class InOrderDigestsTest {
  private static final int PART = 1000;

  /** A staged object in memory: what the destination would read back, in state "s". */
  private static InOrderDigests.Reader reading(byte[] file) {
    return new InOrderDigests.Reader() {
      @Override
      public boolean read(Upload upload, ByteRange range, Checksum.Digest... digests) {
        if (range.offset() + range.length() > file.length) return false;
        for (Checksum.Digest d : digests) d.update(file, (int) range.offset(), (int) range.length());
        return true;
      }

      @Override
      public String staged(Upload upload) {
        return "s";
      }
    };
  }

  private static String crc32c(byte[] bytes, long offset, long length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, (int) offset, (int) length);
    return HexFormat.of().toHexDigits((int) crc.getValue());
  }

  private static long crc32c(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    return crc.getValue();
  }

  private static String md5(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
  }

  private static byte[] bytes(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static List<ByteRange> parts(int size) {
    List<ByteRange> parts = new ArrayList<>();
    for (int offset = 0; offset < size; offset += PART) parts.add(new ByteRange(offset, Math.min(PART, size - offset)));
    return parts;
  }

  private static Upload upload(String id, int size) {
    return new Upload(new StoreObject("k", "k", size, "e", 1L), id);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void partsLandingInAnyOrderOnManyThreadsGiveTheObjectsMd5Once(long seed) throws Exception {
    int size = 1 + new Random(seed).nextInt(40 * PART);
    byte[] file = bytes(size, seed);
    List<ByteRange> parts = parts(size);
    Collections.shuffle(parts, new Random(seed));
    InOrderDigests digests = new InOrderDigests(16, 1000);
    Upload upload = upload("u" + seed, size);
    ConcurrentLinkedQueue<String> texts = new ConcurrentLinkedQueue<>();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<?>> landings = new ArrayList<>();
    for (ByteRange r : parts) {
      landings.add(pool.submit(() -> texts.add(digests.landed(reading(file), upload, r, crc32c(file, r.offset(), r.length())))));
    }
    for (Future<?> f : landings) f.get();
    pool.shutdown();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    List<String> given = texts.stream().filter(t -> !t.isEmpty()).toList();
    assertThat(given).containsExactly(InOrderDigests.text(md5(file), crc32c(file), "s"));
    assertThat(InOrderDigests.md5(given.get(0), crc32c(file), "s")).isEqualTo(md5(file));
  }

  @Test
  void aPartWhoseBytesOnDiskDifferFromItsStreamGivesNoDigest() throws Exception {
    byte[] file = bytes(3 * PART, 9);
    byte[] onDisk = file.clone();
    onDisk[PART + 7] ^= 1; // the file holds another byte than the stream wrote
    InOrderDigests digests = new InOrderDigests(16, 1000);
    Upload upload = upload("u", file.length);
    List<String> texts = new ArrayList<>();
    for (ByteRange r : parts(file.length)) texts.add(digests.landed(reading(onDisk), upload, r, crc32c(file, r.offset(), r.length())));
    assertThat(texts).containsOnly("");
  }

  @Test
  void aPartLandingAgainWithOtherBytesAfterItWasDigestedSpoilsTheDigest() throws Exception {
    byte[] file = bytes(3 * PART, 10);
    InOrderDigests digests = new InOrderDigests(16, 1000);
    Upload upload = upload("u", file.length);
    List<ByteRange> parts = parts(file.length);
    assertThat(digests.landed(reading(file), upload, parts.get(0), crc32c(file, 0, PART))).isEmpty();
    assertThat(digests.landed(reading(file), upload, parts.get(0), crc32c(file, 0, PART))).as("the same bytes again").isEmpty();
    assertThat(digests.landed(reading(file), upload, parts.get(0), "00000000")).as("other bytes").isEmpty();
    assertThat(digests.landed(reading(file), upload, parts.get(1), crc32c(file, PART, PART))).isEmpty();
    assertThat(digests.landed(reading(file), upload, parts.get(2), crc32c(file, 2 * PART, PART))).isEmpty();
  }

  @Test
  void aPartThatCannotBeReadBackGivesNoDigest() throws Exception {
    byte[] file = bytes(2 * PART, 11);
    InOrderDigests digests = new InOrderDigests(16, 1000);
    Upload upload = upload("u", file.length);
    InOrderDigests.Reader none = new InOrderDigests.Reader() {
      @Override
      public boolean read(Upload upload, ByteRange range, Checksum.Digest... digests) {
        return false;
      }

      @Override
      public String staged(Upload upload) {
        return "s";
      }
    };
    assertThat(digests.landed(none, upload, parts(file.length).get(0), crc32c(file, 0, PART))).isEmpty();
    assertThat(digests.landed(reading(file), upload, parts(file.length).get(1), crc32c(file, PART, PART))).isEmpty();
  }

  @Test
  void theLeastRecentlyLandedObjectsAreForgottenBeyondTheCapacity() throws Exception {
    byte[] file = bytes(2 * PART, 12);
    InOrderDigests digests = new InOrderDigests(2, 1000);
    ByteRange first = new ByteRange(0, PART);
    ByteRange second = new ByteRange(PART, PART);
    for (String id : List.of("a", "b", "c")) digests.landed(reading(file), upload(id, file.length), first, crc32c(file, 0, PART));
    assertThat(digests.landed(reading(file), upload("a", file.length), second, crc32c(file, PART, PART))).as("forgotten").isEmpty();
    assertThat(digests.landed(reading(file), upload("c", file.length), second, crc32c(file, PART, PART)))
        .isEqualTo(InOrderDigests.text(md5(file), crc32c(file), "s"));
  }

  @Test
  void beyondThePartsItMayHoldTheLeastRecentlyLandedObjectsAreForgotten() throws Exception {
    byte[] file = bytes(4 * PART, 13);
    InOrderDigests digests = new InOrderDigests(100, 3);
    List<ByteRange> parts = parts(file.length);
    for (String id : List.of("a", "b")) {
      for (ByteRange r : parts.subList(1, 3)) {
        digests.landed(reading(file), upload(id, file.length), r, crc32c(file, r.offset(), r.length()));
      }
    }
    // four parts wait, one more than it may hold: b's next landing forgets a's two; a never completes, b does
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    for (ByteRange r : List.of(parts.get(0), parts.get(3))) {
      b.add(digests.landed(reading(file), upload("b", file.length), r, crc32c(file, r.offset(), r.length())));
      a.add(digests.landed(reading(file), upload("a", file.length), r, crc32c(file, r.offset(), r.length())));
    }
    assertThat(a).containsOnly("");
    assertThat(b).containsExactly("", InOrderDigests.text(md5(file), crc32c(file), "s"));
  }

  @Test
  void twoObjectsOfOneUploadIdInTwoFoldersAreApart() throws Exception {
    byte[] file = bytes(2 * PART, 14);
    InOrderDigests digests = new InOrderDigests(16, 1000);
    Upload one = new Upload(new StoreObject("x/part-0", "x/part-0", file.length, "e", 1L), ".part-0.tmp");
    Upload two = new Upload(new StoreObject("y/part-0", "y/part-0", file.length, "e", 1L), ".part-0.tmp");
    ByteRange first = new ByteRange(0, PART);
    ByteRange second = new ByteRange(PART, PART);
    assertThat(digests.landed(reading(file), one, first, crc32c(file, 0, PART))).isEmpty();
    assertThat(digests.landed(reading(file), two, second, crc32c(file, PART, PART))).as("not one's second part").isEmpty();
    assertThat(digests.landed(reading(file), two, first, crc32c(file, 0, PART))).isNotEmpty();
  }

  @Test
  void aDigestIsTrustedOnlyForTheBytesItWasTakenFromInTheStateTheyWereIn() {
    String text = InOrderDigests.text("0123456789abcdef0123456789abcdef", 0xCAFEL, "8/1000/(dev=1,ino=2)");
    assertThat(InOrderDigests.md5(text, 0xCAFEL, "8/1000/(dev=1,ino=2)")).isEqualTo("0123456789abcdef0123456789abcdef");
    assertThat(InOrderDigests.md5(text, 0xCAFFL, "8/1000/(dev=1,ino=2)")).as("other parts").isNull();
    assertThat(InOrderDigests.md5(text, 0xCAFEL, "8/1001/(dev=1,ino=2)")).as("written since").isNull();
    assertThat(InOrderDigests.md5(text, 0xCAFEL, null)).as("a destination that keeps no state").isNull();
    assertThat(InOrderDigests.md5("", 0xCAFEL, "s")).isNull();
    assertThat(InOrderDigests.md5("conflicting", 0xCAFEL, "s")).isNull();
  }
}
