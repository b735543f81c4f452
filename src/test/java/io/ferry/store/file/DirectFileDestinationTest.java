package io.ferry.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.DirectoryConfig;
import io.ferry.store.ByteRange;
import io.ferry.store.Destination;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.checksums.Checksum;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The whole directory suite again with {@code destination.direct-io = true}: whole aligned blocks around the page
 * cache, heads and tails through it, reads back from the disk; and where a filesystem refuses O_DIRECT, the refusal.
 */
class DirectFileDestinationTest extends FileDestinationTest {
  @Override
  protected DirectoryConfig.Writes writes() {
    return DirectoryConfig.Writes.DIRECT;
  }

  @BeforeEach
  void directIoIsTaken() {
    Optional<String> refused = FileIo.refusal(root, "R1");
    if (refused.isPresent()) System.err.println("WARNING: SKIPPED: " + root + " refuses O_DIRECT (" + refused.get() + ")");
    Assumptions.assumeTrue(refused.isEmpty(), "the temp directory's filesystem refuses O_DIRECT");
  }

  @Test
  void partsOnNoBlocksEdgeReadBackAsWrittenAtAnyOffset() throws Exception {
    Random random = new Random(11);
    byte[] bytes = new byte[(3 << 20) + 4097];
    random.nextBytes(bytes);
    Destination d = destination();
    StoreObject o = new StoreObject("parts.bin", "parts.bin", bytes.length, "e", 1_543_622_400_000L);
    Upload upload = d.open(o, () -> ObjectMetadata.NONE);
    int[] edges = {0, 1_000_001, 1_000_001 + 4096, 2_500_000, bytes.length}; // a part of exactly one block among them
    for (int p = edges.length - 2; p >= 0; p--) {
      int from = edges[p];
      int to = edges[p + 1];
      d.write(upload, p + 1, new ByteRange(from, to - from), 0, () -> new ByteArrayInputStream(bytes, from, to - from),
          () -> ObjectMetadata.NONE);
    }
    for (int i = 0; i < 50; i++) {
      int offset = random.nextInt(bytes.length);
      int length = random.nextInt(Math.min(bytes.length - offset, 3 << 20) + 1);
      Checksum.Digest read = Checksum.digest(Checksum.Algorithm.MD5);
      assertThat(d.readBack(upload, new ByteRange(offset, length), read)).isTrue();
      Checksum.Digest want = Checksum.digest(Checksum.Algorithm.MD5);
      want.update(bytes, offset, length);
      assertThat(read.value()).as("%d bytes at %d", length, offset).isEqualTo(want.value());
    }
    Checksum.Digest whole = Checksum.digest(Checksum.Algorithm.CRC32C);
    whole.update(bytes, 0, bytes.length);
    assertThat(d.readBack(upload, Checksum.Algorithm.CRC32C)).isEqualTo(whole.value());
    d.complete(upload, new TreeMap<>(Map.of(1, "", 2, "", 3, "", 4, "")));
    assertThat(Files.readAllBytes(root.resolve("parts.bin"))).isEqualTo(bytes);
  }

  @Test
  void theProbeLeavesNothingAndIsNoRefusalWhereNoFileCanBeMade() throws Exception {
    assertThat(FileIo.refusal(root, "R1")).isEmpty();
    try (var left = Files.list(root)) {
      assertThat(left).isEmpty();
    }
    assertThat(FileIo.refusal(root.resolve("missing"), "R1")).as("the preflight says why, not the probe").isEmpty();
  }

  /**
   * A filesystem that wants larger blocks than assumed (NFS's wsize): the JDK refuses the first direct write ("not a
   * multiple of the block size"), and the file is written through the page cache, every byte in place. Failed before
   * the fallback took any first failure (it took only "Invalid argument": the write failed for good).
   */
  @Test
  void aFileWhoseFirstDirectWriteIsRefusedIsWrittenThroughThePageCache() throws Exception {
    byte[] bytes = new byte[3 * 4096 + 100];
    new Random(5).nextBytes(bytes);
    Path file = root.resolve("misaligned.bin");
    FileIo assumedSmall = new FileIo.Direct(512); // this ext4 wants 4096: a position of 512 passes ours, not the JDK's
    try (var channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE);
        FileIo.Writes out = assumedSmall.writes(channel, file)) {
      out.write(bytes, 0, bytes.length, 512);
      out.write(bytes, 0, 512, 0);
    }
    byte[] want = new byte[512 + bytes.length];
    System.arraycopy(bytes, 0, want, 0, 512);
    System.arraycopy(bytes, 0, want, 512, bytes.length);
    assertThat(Files.readAllBytes(file)).isEqualTo(want);
    byte[] back = new byte[bytes.length];
    try (FileIo.Reads reads = assumedSmall.reads(file)) {
      assertThat(reads.read(back, bytes.length, 512)).as("read back through the page cache").isEqualTo(bytes.length);
    }
    assertThat(back).isEqualTo(bytes);
  }
}
