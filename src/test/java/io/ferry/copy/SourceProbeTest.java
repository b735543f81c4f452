package io.ferry.copy;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.DirectoryConfig;
import io.ferry.store.ByteRange;
import io.ferry.store.RangeReader;
import io.ferry.store.StoreObject;
import io.ferry.store.file.FileStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceProbeTest {
  @TempDir Path root;

  /** The real directory reader, with the ranges it was asked for. */
  private RangeReader reader(List<ByteRange> asked) {
    RangeReader files = new FileStore(new DirectoryConfig(root.toString()), "run", 4096).reader();
    return new RangeReader() {
      @Override
      public InputStream open(StoreObject object, ByteRange range) throws IOException {
        asked.add(range);
        return files.open(object, range);
      }

      @Override
      public io.ferry.store.ObjectMetadata metadataOf(InputStream opened, StoreObject object, boolean tags) {
        throw new UnsupportedOperationException();
      }

      @Override
      public io.ferry.store.ObjectMetadata metadata(StoreObject object, boolean tags) {
        throw new UnsupportedOperationException();
      }

      @Override
      public String verb() {
        return files.verb();
      }
    };
  }

  private StoreObject file(String name, long size) throws IOException {
    Files.write(root.resolve(name), new byte[(int) size]);
    return new StoreObject(name, name, size, "", Files.getLastModifiedTime(root.resolve(name)).toMillis());
  }

  @Test
  void aLargeObjectIsReadTwiceFromItsStartAFewBytesThenUpTo8MibMeasured() throws IOException {
    List<ByteRange> asked = new ArrayList<>();
    SourceProbe probe = SourceProbe.measure(reader(asked), file("big", 12L << 20));
    assertThat(asked).containsExactly(new ByteRange(0, SourceProbe.WARM), new ByteRange(0, SourceProbe.BYTES));
    assertThat(probe.measured()).isTrue();
    assertThat(probe.firstByteSeconds()).isPositive().isLessThan(10);
    assertThat(probe.bytesPerSecond()).isPositive();
  }

  @Test
  void anObjectTooSmallToTellARateIsNotRead() throws IOException {
    List<ByteRange> asked = new ArrayList<>();
    assertThat(SourceProbe.measure(reader(asked), file("small", SourceProbe.LEAST))).isEqualTo(SourceProbe.NONE);
    assertThat(asked).isEmpty();
    assertThat(SourceProbe.NONE.measured()).isFalse();
  }
}
