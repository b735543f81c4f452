package io.ferry.commit;

import io.ferry.store.Retrier;
import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.DirectoryConfig;
import io.ferry.copy.RangeResult;
import io.ferry.store.ByteRange;
import io.ferry.store.Destination;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.file.FileStore;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commit path on a real directory: complete what arrived whole, abort the rest, say why. */
class CommitterTest {
  @TempDir Path root;

  private Destination destination() {
    return new FileStore(new DirectoryConfig(root.toString()), "run-1", 4096).destination();
  }

  private static StoreObject object(String key, long size) {
    return new StoreObject(key, key, size, "e", 1_000_000L);
  }

  private static PartTally range(StoreObject o, int part, int parts, ByteRange range, boolean ok, String uploadId) {
    return PartTally.of(new RangeResult(o, "dest/" + o.key(), 0, part, parts, range.offset(), range.length(), ok ? range.length() : 0,
        range.length(), 0, 0, 0, 0, 1, "m", "0", "h", ok ? RangeResult.Status.OK : RangeResult.Status.FAILED, ok ? "" : "reset",
        "00000000", uploadId, ""));
  }

  private static void write(Destination d, Upload upload, int part, ByteRange range, String all) throws Exception {
    byte[] bytes = all.substring((int) range.offset(), (int) (range.offset() + range.length())).getBytes();
    d.write(upload, part, range, 0, () -> new ByteArrayInputStream(bytes), () -> ObjectMetadata.NONE);
  }

  @Test
  void completeObjectsAreCommittedIncompleteOnesAbortedWithTheReason() throws Exception {
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
        range(done, 1, 2, new ByteRange(0, 4), true, doneUpload.id()).merge(range(done, 2, 2, new ByteRange(4, 4), true, doneUpload.id())),
        range(broken, 1, 2, new ByteRange(0, 4), true, brokenUpload.id()).merge(range(broken, 2, 2, new ByteRange(4, 4), false, brokenUpload.id())),
        range(missing, 1, 2, new ByteRange(0, 4), true, missingUpload.id()));
    Map<String, ObjectResult> results = new Committer(d, 2, Retrier.once()).commit(tallies).stream()
        .collect(Collectors.toMap(r -> r.object().key(), r -> r));

    assertThat(results.get("done.txt").status()).isEqualTo(ObjectResult.Status.COPIED);
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
  void aCompletionThatFailsIsReportedAndTheObjectAborted() throws Exception {
    Destination d = destination();
    StoreObject short_ = object("short.txt", 8);
    write(d, Upload.whole(short_), 1, new ByteRange(0, 4), "abcd----");
    PartTally tally = range(short_, 1, 1, new ByteRange(0, 8), true, "");
    ObjectResult result = new Committer(d, 1, Retrier.once()).commit(List.of(tally)).get(0);
    assertThat(result.status()).isEqualTo(ObjectResult.Status.FAILED);
    assertThat(result.error()).isEqualTo("commit failed: temp file holds 4 bytes, the object has 8");
    try (var files = Files.list(root)) {
      assertThat(files).as("the temp file is gone").isEmpty();
    }
  }
}
