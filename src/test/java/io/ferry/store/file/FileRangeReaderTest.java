package io.ferry.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.store.ByteRange;
import io.ferry.store.retry.Failures;
import io.ferry.store.StoreObject;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A directory source's ranges are pinned to the version listed: a file changed during the copy fails, never mixes. */
class FileRangeReaderTest {
  @TempDir Path root;

  private StoreObject listed(String key) throws Exception {
    return new FileLister(root).find(key);
  }

  @Test
  void aRangeOfTheListedVersionReadsWhole() throws Exception {
    Files.writeString(root.resolve("f"), "0123456789");
    try (InputStream in = new FileRangeReader(root, false).open(listed("f"), new ByteRange(2, 5))) {
      assertThat(new String(in.readAllBytes())).isEqualTo("23456");
    }
  }

  @Test
  void aFileRewrittenWhileItsRangeIsReadFailsForGood() throws Exception {
    Path f = Files.writeString(root.resolve("f"), "0123456789");
    StoreObject o = listed("f");
    InputStream in = new FileRangeReader(root, false).open(o, new ByteRange(0, 10));
    in.readNBytes(4);
    Files.writeString(f, "abcdefghij"); // same size, rewritten in place
    Files.setLastModifiedTime(f, FileTime.fromMillis(o.lastModifiedMillis() + 1_000));
    assertThatThrownBy(in::readAllBytes).hasMessageContaining("the file changed during the run: it was modified since it was listed")
        .matches(e -> !Failures.isRetryable(e));
    in.close();
  }

  @Test
  void aFileReplacedUnderItsNameWithTheSameSizeAndTimeIsAnotherOne() throws Exception {
    Path f = Files.writeString(root.resolve("f"), "0123456789");
    StoreObject o = listed("f");
    Path other = Files.writeString(root.resolve("g"), "abcdefghij");
    Files.setLastModifiedTime(other, Files.getLastModifiedTime(f));
    Files.move(other, f, StandardCopyOption.REPLACE_EXISTING);
    assertThat(o.version()).startsWith("ino=");
    assertThatThrownBy(() -> new FileRangeReader(root, false).open(o, new ByteRange(0, 10)))
        .hasMessageContaining("it was replaced by another file since it was listed");
  }
}
