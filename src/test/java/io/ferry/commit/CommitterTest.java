package io.ferry.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.DirectoryConfig;
import io.ferry.copy.InOrderDigests;
import io.ferry.copy.RangeResult;
import io.ferry.store.ByteRange;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.Destination;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.retry.Retrier;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.Uploads;
import io.ferry.store.file.FileStore;
import java.io.ByteArrayInputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The commit path on a real directory: check, complete what arrived whole, abort the rest, say why. */
class CommitterTest {
  @TempDir Path root;

  private Destination destination() {
    return new FileStore(new DirectoryConfig(root.toString()), "run-1", 4096).destination();
  }

  private static StoreObject object(String key, long size) {
    return new StoreObject(key, key, size, "e", 1_000_000L);
  }

  private static String crc32c(String bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes.getBytes(StandardCharsets.US_ASCII));
    return HexFormat.of().toHexDigits((int) crc.getValue());
  }

  private static String crc32cChecksum(String bytes) {
    Checksum.Digest d = Checksum.digest(Checksum.Algorithm.CRC32C);
    d.update(bytes.getBytes(StandardCharsets.US_ASCII), 0, bytes.length());
    return "crc32c:" + d.value();
  }

  /** A range's result as the copy reports it: {@code read} is what was read of {@code range} of the object. */
  private static PartTally range(StoreObject o, int part, int parts, ByteRange range, boolean ok, String uploadId, String read,
      String expected) {
    return PartTally.of(RangeResult.of(o, "dest/" + o.key()).task(0).part(part, parts, range.offset(), range.length())
        .bytes(ok ? range.length() : 0, range.length()).times(0, 0, 0, 0).attempts(1).by("m", "0", "h").error(ok ? "" : "reset")
        .digests(crc32c(read), expected.isEmpty() ? "" : crc32cChecksum(read), expected).upload(uploadId, "").build());
  }

  private static void write(Destination d, Upload upload, int part, ByteRange range, String all) throws Exception {
    byte[] bytes = all.substring((int) range.offset(), (int) (range.offset() + range.length())).getBytes(StandardCharsets.US_ASCII);
    d.write(upload, part, range, 0, () -> new ByteArrayInputStream(bytes), () -> ObjectMetadata.NONE);
  }

  @Test
  void completeObjectsAreCheckedAndCommittedIncompleteOnesAbortedWithTheReason() throws Exception {
    Destination d = destination();
    StoreObject done = object("done.txt", 8);
    Upload doneUpload = d.open(done, () -> ObjectMetadata.NONE);
    write(d, doneUpload, 1, new ByteRange(0, 4), "abcdefgh");
    write(d, doneUpload, 2, new ByteRange(4, 4), "abcdefgh");
    StoreObject broken = object("broken.txt", 8);
    Files.writeString(root.resolve("broken.txt"), "previous");
    Upload brokenUpload = d.open(broken, () -> ObjectMetadata.NONE);
    write(d, brokenUpload, 1, new ByteRange(0, 4), "ABCDEFGH");
    StoreObject missing = object("missing.txt", 8);
    Upload missingUpload = d.open(missing, () -> ObjectMetadata.NONE);

    List<PartTally> tallies = List.of(
        range(done, 1, 2, new ByteRange(0, 4), true, doneUpload.id(), "abcd", "")
            .merge(range(done, 2, 2, new ByteRange(4, 4), true, doneUpload.id(), "efgh", "")),
        range(broken, 1, 2, new ByteRange(0, 4), true, brokenUpload.id(), "ABCD", "")
            .merge(range(broken, 2, 2, new ByteRange(4, 4), false, brokenUpload.id(), "", "")),
        range(missing, 1, 2, new ByteRange(0, 4), true, missingUpload.id(), "ABCD", ""));
    Map<String, ObjectResult> results = new Committer(d, 2, Retrier.once()).commit(tallies).stream()
        .collect(Collectors.toMap(r -> r.object().key(), r -> r));

    assertThat(results.get("done.txt").status()).isEqualTo(ObjectResult.Status.COPIED);
    assertThat(results.get("done.txt").verified()).as("no source checksum: the file read back").isEqualTo("read-back-crc32c");
    assertThat(results.get("done.txt").checksum()).isEqualTo(crc32cChecksum("abcdefgh"));
    assertThat(root.resolve("done.txt")).hasContent("abcdefgh");
    assertThat(results.get("broken.txt").status()).isEqualTo(ObjectResult.Status.FAILED);
    assertThat(results.get("broken.txt").error()).isEqualTo("part 2 of 2: reset");
    assertThat(root.resolve("broken.txt")).as("the previous version stays").hasContent("previous");
    assertThat(results.get("missing.txt").error()).isEqualTo("only 1 of 2 parts arrived");
    try (var files = Files.list(root)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("done.txt", "broken.txt");
    }
  }

  @Test
  void partsCombineIntoTheSourcesChecksumAndAMismatchIsCopiedAgainBeforeItCanBeCommitted() throws Exception {
    Destination d = destination();
    StoreObject o = object("repaired.txt", 8);
    String expected = crc32cChecksum("abcdefgh");
    Upload upload = d.open(o, () -> ObjectMetadata.NONE);
    write(d, upload, 1, new ByteRange(0, 4), "abcdefgh");
    write(d, upload, 2, new ByteRange(4, 4), "abcdXfgh"); // a byte flipped on its way: read (and written) as "Xfgh"
    PartTally tally = range(o, 1, 2, new ByteRange(0, 4), true, upload.id(), "abcd", expected)
        .merge(range(o, 2, 2, new ByteRange(4, 4), true, upload.id(), "Xfgh", expected));
    AtomicInteger repairs = new AtomicInteger();
    Committer.Repair copyAgain = t -> {
      repairs.incrementAndGet();
      write(d, upload, 2, new ByteRange(4, 4), "abcdefgh");
      return range(o, 1, 2, new ByteRange(0, 4), true, upload.id(), "abcd", expected)
          .merge(range(o, 2, 2, new ByteRange(4, 4), true, upload.id(), "efgh", expected));
    };
    ObjectResult result = new Committer(d, 1, Retrier.once(), copyAgain).commit(List.of(tally)).get(0);
    assertThat(result.status()).as(result.error()).isEqualTo(ObjectResult.Status.COPIED);
    assertThat(result.verified()).isEqualTo("source-crc32c");
    assertThat(repairs).hasValue(1);
    assertThat(root.resolve("repaired.txt")).hasContent("abcdefgh");
  }

  @Test
  void aCopyThatStillDoesNotMatchIsNotCommittedAndTheChangedPartsAreNamed() throws Exception {
    Destination d = destination();
    StoreObject o = object("bad.txt", 8);
    Files.writeString(root.resolve("bad.txt"), "previous");
    String expected = crc32cChecksum("abcdefgh");
    Upload upload = d.open(o, () -> ObjectMetadata.NONE);
    write(d, upload, 1, new ByteRange(0, 4), "abcdefgh");
    write(d, upload, 2, new ByteRange(4, 4), "abcdXfgh");
    PartTally tally = range(o, 1, 2, new ByteRange(0, 4), true, upload.id(), "abcd", expected)
        .merge(range(o, 2, 2, new ByteRange(4, 4), true, upload.id(), "Xfgh", expected));
    Committer.Repair stillWrong = t -> range(o, 1, 2, new ByteRange(0, 4), true, upload.id(), "abcd", expected)
        .merge(range(o, 2, 2, new ByteRange(4, 4), true, upload.id(), "Yfgh", expected));
    ObjectResult result = new Committer(d, 1, Retrier.once(), stillWrong).commit(List.of(tally)).get(0);
    assertThat(result.status()).isEqualTo(ObjectResult.Status.FAILED);
    assertThat(result.error()).startsWith("not committed: the copy's crc32c ").contains("does not match the source's")
        .endsWith("the bytes of part(s) [2] changed between two reads of the source");
    assertThat(root.resolve("bad.txt")).hasContent("previous");
    try (var files = Files.list(root)) {
      assertThat(files).as("the temp file is gone").hasSize(1);
    }
  }

  /** The destination, counting the commit's reads of staged bytes. */
  private static Uploads countingReadBacks(Destination d, List<Checksum.Algorithm> readBacks) {
    return (Uploads) Proxy.newProxyInstance(Uploads.class.getClassLoader(), new Class<?>[] {Uploads.class}, (proxy, method, args) -> {
      if (method.getName().equals("readBack")) readBacks.add((Checksum.Algorithm) args[1]);
      try {
        return method.invoke(d, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    });
  }

  /**
   * An object whose source keeps only an MD5, copied in parts: the digest taken in order as its parts landed stands
   * for the MD5's read-back (the file's CRC32C, far cheaper, is read back instead, to show the file holds those bytes
   * still), where it was taken from the bytes the committed parts' CRC32Cs describe; a wrong one fails the object, and
   * one of other bytes is not trusted.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "digested in order,         abcdefgh, abcdefgh, false, CRC32C,     COPIED",
      "digest of other bytes,     abcdXfgh, abcdefgh, false, MD5,        COPIED",
      "digested wrong,            abcdefgh, abcdXfgh, false, CRC32C,     FAILED",
      "written since,             abcdefgh, abcdefgh, true,  MD5,        COPIED",
      "none,                      '',       abcdefgh, false, MD5,        COPIED"})
  void anInOrderDigestSparesTheMd5ReadBackWhereItIsOfTheCommittedPartsAsTheyStand(String name, String digestedBytes,
      String digestedMd5, boolean writtenSince, String readBack, ObjectResult.Status status) throws Exception {
    Destination d = destination();
    StoreObject o = object("md5.bin", 8);
    String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest("abcdefgh".getBytes(StandardCharsets.US_ASCII)));
    String expected = "md5:" + md5;
    Upload upload = d.open(o, () -> ObjectMetadata.NONE);
    write(d, upload, 1, new ByteRange(0, 4), "abcdefgh");
    write(d, upload, 2, new ByteRange(4, 4), "abcdefgh");
    String digest = digestedBytes.isEmpty() ? "" : InOrderDigests.text(HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
        .digest(digestedMd5.getBytes(StandardCharsets.US_ASCII))), Integer.toUnsignedLong(HexFormat.fromHexDigits(crc32c(digestedBytes))),
        d.staged(upload));
    if (writtenSince) { // a late attempt writes the part again (its bytes the same here): what was digested may not be there
      Thread.sleep(20); // past the filesystem's clock tick
      write(d, upload, 2, new ByteRange(4, 4), "abcdefgh");
    }
    PartTally tally = range(o, 1, 2, new ByteRange(0, 4), true, upload.id(), "abcd", expected)
        .merge(PartTally.of(RangeResult.of(o, "dest/" + o.key()).task(0).part(2, 2, 4, 4).bytes(4, 4).times(0, 0, 0, 0).attempts(1)
            .by("m", "0", "h").digests(crc32c("efgh"), "", expected).upload(upload.id(), "").objectDigest(digest).build()));
    List<Checksum.Algorithm> readBacks = new java.util.ArrayList<>();
    ObjectResult result = new Committer(countingReadBacks(d, readBacks), 1, Retrier.once()).commit(List.of(tally)).get(0);
    assertThat(result.status()).as(result.error()).isEqualTo(status);
    assertThat(readBacks.stream().map(Enum::name).toList()).as("read back whole, in").containsExactly(readBack.split(" "));
    if (status == ObjectResult.Status.COPIED) {
      assertThat(result.verified()).isEqualTo("source-md5-etag");
      assertThat(root.resolve("md5.bin")).hasContent("abcdefgh");
    } else {
      assertThat(result.error()).isEqualTo("not committed: the copy's MD5 " + HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
          .digest("abcdXfgh".getBytes(StandardCharsets.US_ASCII))) + " does not match the source's ETag " + md5);
      assertThat(root.resolve("md5.bin")).doesNotExist();
    }
  }

  /**
   * A stray attempt of part 1 (a speculative or written-off task's, one that failed after writing) writes other bytes
   * after part 1 was digested in order and before the last part landed, so the file's state when the digest was
   * taken already includes it: the commit must not take that MD5 for the bytes the file holds.
   */
  @Test
  void aStrayWriteBetweenAPartsReadBackAndTheLastLandingIsCaughtAtTheCommit() throws Exception {
    Destination d = destination();
    StoreObject o = object("stray.bin", 8);
    String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest("abcdefgh".getBytes(StandardCharsets.US_ASCII)));
    Upload upload = d.open(o, () -> ObjectMetadata.NONE);
    write(d, upload, 1, new ByteRange(0, 4), "abcdefgh"); // landed and read back in order: "abcd"
    write(d, upload, 1, new ByteRange(0, 4), "abXdefgh"); // the stray attempt, which never lands
    write(d, upload, 2, new ByteRange(4, 4), "abcdefgh"); // the last part lands: the digest and the state now
    String digest = InOrderDigests.text(md5, Integer.toUnsignedLong(HexFormat.fromHexDigits(crc32c("abcdefgh"))), d.staged(upload));
    PartTally tally = range(o, 1, 2, new ByteRange(0, 4), true, upload.id(), "abcd", "md5:" + md5)
        .merge(PartTally.of(RangeResult.of(o, "dest/" + o.key()).task(0).part(2, 2, 4, 4).bytes(4, 4).times(0, 0, 0, 0).attempts(1)
            .by("m", "0", "h").digests(crc32c("efgh"), "", "md5:" + md5).upload(upload.id(), "").objectDigest(digest).build()));
    List<Checksum.Algorithm> readBacks = new java.util.ArrayList<>();
    ObjectResult result = new Committer(countingReadBacks(d, readBacks), 1, Retrier.once()).commit(List.of(tally)).get(0);
    assertThat(readBacks).as("the CRC32C shows other bytes, so the MD5 is read back").containsExactly(Checksum.Algorithm.CRC32C,
        Checksum.Algorithm.MD5);
    assertThat(result.status()).as("committed with %s", result.verified()).isEqualTo(ObjectResult.Status.FAILED);
    assertThat(result.error()).contains("does not match the source's ETag " + md5);
    assertThat(root.resolve("stray.bin")).doesNotExist();
  }

  @Test
  void aCompletionThatFailsIsReportedAndTheObjectAborted() throws Exception {
    Destination d = destination();
    StoreObject short_ = object("short.txt", 8);
    write(d, Upload.whole(short_), 1, new ByteRange(0, 4), "abcd----");
    PartTally tally = range(short_, 1, 1, new ByteRange(0, 8), true, "", "abcd----", "");
    ObjectResult result = new Committer(d, 1, Retrier.once()).commit(List.of(tally)).get(0);
    assertThat(result.status()).isEqualTo(ObjectResult.Status.FAILED);
    assertThat(result.error()).as("the read-back sees 4 bytes where 8 were written")
        .startsWith("not committed: the destination holds crc32c ");
    try (var files = Files.list(root)) {
      assertThat(files).as("the temp file is gone").isEmpty();
    }
  }
}
