package io.ferry.store.file;

import io.ferry.store.ByteRange;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.RangeReader;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/** Positioned reads of files under a directory (local disk, NFS, a block volume): the source of an upload. */
final class FileRangeReader implements RangeReader {
  private final Path root;

  FileRangeReader(Path root) {
    this.root = root;
  }

  @Override
  public InputStream open(StoreObject object, ByteRange range) throws IOException {
    Path file = root.resolve(object.key());
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    if (channel.size() != object.size()) {
      long size = channel.size();
      channel.close();
      throw new java.nio.file.FileSystemException(file.toString(), null,
          "the file changed during the run: it has " + size + " bytes, it had " + object.size() + " when listed");
    }
    return new InputStream() {
      private long position = range.offset();
      private final long end = range.offset() + range.length();

      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        if (position >= end) return -1;
        int n = channel.read(ByteBuffer.wrap(buffer, offset, (int) Math.min(length, end - position)), position);
        if (n > 0) position += n;
        return n;
      }

      @Override
      public void close() throws IOException {
        channel.close();
      }
    };
  }

  @Override
  public ObjectMetadata metadataOf(InputStream opened, StoreObject object) {
    return metadata(object);
  }

  /** A content type guessed from the file name; files carry no other object metadata. */
  @Override
  public ObjectMetadata metadata(StoreObject object) {
    String type = null;
    try {
      type = Files.probeContentType(root.resolve(object.key()));
    } catch (IOException e) {
      // no guess
    }
    return new ObjectMetadata(type, null, null, null, Map.of());
  }

  @Override
  public String verb() {
    return "read";
  }
}
