package io.ferry.copy;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.DirectoryConfig;
import io.ferry.plan.CopyTask;
import io.ferry.plan.RangeTask;
import io.ferry.store.ByteRange;
import io.ferry.store.Destination;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.file.FileStore;
import io.ferry.store.retry.Retrier;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copy's streams into a real directory: the parts of an object whose source keeps only an MD5 give that MD5 once,
 * on the result of the part that completed it, and nothing for any other object.
 */
class InOrderWiringTest {
  @TempDir Path root;

  /** Writes each part's slice of {@code bytes} through the destination, as a stream from the source would. */
  private static RangeTransfer writing(Destination d, byte[] bytes) {
    return new RangeTransfer() {
      @Override
      public String method() {
        return "test+write";
      }

      @Override
      public boolean resumable(RangeTask task) {
        return false;
      }

      @Override
      public String location(RangeTask task) {
        return d.location(task.object());
      }

      @Override
      public String attempt(RangeTask task, Upload upload, Progress progress) throws java.io.IOException {
        int from = (int) task.range().offset();
        int length = (int) task.range().length();
        progress.moved(bytes, from, length);
        return d.write(upload, task.partNumber(), task.range(), 0, () -> new ByteArrayInputStream(bytes, from, length),
            () -> ObjectMetadata.NONE);
      }
    };
  }

  private List<RangeResult> copy(String key, byte[] bytes, Checksum expected) throws Exception {
    Destination d = new FileStore(new DirectoryConfig(root.toString()), "run-1", 4096).destination();
    StoreObject o = new StoreObject(key, key, bytes.length, "e", 1L);
    Upload upload = d.open(o, () -> ObjectMetadata.NONE);
    int parts = 12;
    int size = bytes.length / parts;
    List<Assignment> assignments = new ArrayList<>();
    for (int p = 0; p < parts; p++) {
      long offset = (long) p * size;
      long length = p == parts - 1 ? bytes.length - offset : size;
      assignments.add(Assignment.part(new CopyTask(p, List.of(new RangeTask(o, p + 1, parts, new ByteRange(offset, length)))), upload,
          expected));
    }
    RangeCopier copier = new RangeCopier(writing(d, bytes), Retrier.once(), "0", "h", new InOrderDigests(16, 1000),
        new InOrderDigests.Reader() {
          @Override
          public boolean read(Upload u, ByteRange range, Checksum.Digest... digests) throws java.io.IOException {
            return d.readBack(u, range, digests);
          }

          @Override
          public String staged(Upload u) throws java.io.IOException {
            return d.staged(u);
          }
        });
    return ConcurrentRanges.copy(assignments, 4, copier, n -> {}, r -> {});
  }

  @Test
  void thePartsOfAnObjectWithAnMd5ETagGiveItsMd5Once() throws Exception {
    byte[] bytes = new byte[120_007];
    new Random(5).nextBytes(bytes);
    String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
    List<RangeResult> results = copy("m.bin", bytes, new Checksum(Checksum.Algorithm.MD5, md5, false));
    assertThat(results).allSatisfy(r -> assertThat(r.status()).isEqualTo(RangeResult.Status.OK));
    List<String> digests = results.stream().map(RangeResult::objectDigest).filter(d -> !d.isEmpty()).toList();
    assertThat(digests).hasSize(1);
    assertThat(digests.get(0)).startsWith("md5:" + md5 + " crc32c:");
  }

  @Test
  void anObjectWithoutAnMd5GetsNoDigest() throws Exception {
    byte[] bytes = new byte[50_000];
    new Random(6).nextBytes(bytes);
    assertThat(copy("n.bin", bytes, null)).allSatisfy(r -> assertThat(r.objectDigest()).isEmpty());
  }
}
