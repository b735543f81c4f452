package io.ferry.store.file;

import com.sun.nio.file.ExtendedOpenOption;
import io.ferry.config.DirectoryConfig;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * How a destination's temp files take their bytes and give them back to the checks: through the page cache, or around
 * it (O_DIRECT), where the kernel's copy into fresh page-cache pages is most of a write's CPU. Chosen once per
 * destination ({@code destination.direct-io}).
 */
interface FileIo {
  /** Bytes a stream reads from its body per write, given {@code copy.buffer-size}. */
  int chunk(int bufferSize);

  /** Of a fill of up to {@code chunk} bytes landing at {@code position}, how many to read: a fill may end on a block. */
  int fill(int chunk, long position);

  /** Positioned writes into the temp file open as {@code channel} (readable and writable) at {@code temp}. */
  Writes writes(FileChannel channel, Path temp) throws IOException;

  /** The temp file at {@code temp} opened for reading back. */
  Reads reads(Path temp) throws IOException;

  /** Reads of one file. */
  interface Reads extends Closeable {
    /** Up to {@code length} bytes at {@code position} into {@code into}: the count, or -1 at the file's end. */
    int read(byte[] into, int length, long position) throws IOException;

    long size() throws IOException;
  }

  /** Writes of one stream into one file. */
  interface Writes extends Closeable {
    /** {@code bytes[from, to)} at {@code position}, all of them. */
    void write(byte[] bytes, int from, int to, long position) throws IOException;

    @Override
    default void close() throws IOException {}
  }

  static FileIo of(DirectoryConfig.Writes how) {
    return how == DirectoryConfig.Writes.DIRECT ? new Direct() : PAGE_CACHE;
  }

  /**
   * Why the filesystem under {@code root} refuses direct I/O, or empty where it takes it, or where no file can be made
   * there at all (the preflight says why): a probe file of the job's, created, opened again with O_DIRECT and written one
   * aligned block, then removed. Older kernels' tmpfs refuses it ("Invalid argument"); since Linux 6.6 it takes it.
   */
  static Optional<String> refusal(Path root, String tag) {
    Path probe = KeyPaths.tempPath(root.resolve("direct-io-probe"), tag, KeyPaths.nonce());
    try {
      Files.createFile(probe);
    } catch (IOException e) {
      return Optional.empty();
    }
    try (FileChannel channel = FileChannel.open(probe, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS, ExtendedOpenOption.DIRECT)) {
      channel.write(ByteBuffer.allocateDirect(2 * Direct.BLOCK).alignedSlice(Direct.BLOCK), 0);
      return Optional.empty();
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.of(String.valueOf(e.getMessage()));
    } finally {
      try {
        Files.deleteIfExists(probe);
      } catch (IOException ignored) {
        // a probe file left is a temp file of the job's: its next cleanup removes it
      }
    }
  }

  FileIo PAGE_CACHE = new FileIo() {
    @Override
    public int chunk(int bufferSize) {
      return bufferSize;
    }

    @Override
    public int fill(int chunk, long position) {
      return chunk;
    }

    @Override
    public Writes writes(FileChannel channel, Path temp) {
      return (bytes, from, to, position) -> SparseWriter.write(channel, bytes, from, to, position);
    }

    @Override
    public Reads reads(Path temp) throws IOException {
      FileChannel channel = FileChannel.open(temp, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
      return new Reads() {
        @Override
        public int read(byte[] into, int length, long position) throws IOException {
          return channel.read(ByteBuffer.wrap(into, 0, length), position);
        }

        @Override
        public long size() throws IOException {
          return channel.size();
        }

        @Override
        public void close() throws IOException {
          channel.close();
        }
      };
    }
  };

  /**
   * Whether an open, a write or a read with O_DIRECT failed because the file's filesystem refuses it (EINVAL: a FUSE
   * mount below the root, say): that file is written and read through the page cache.
   */
  static boolean refusesDirect(IOException e) {
    String why = e instanceof FileSystemException f ? f.getReason() : e.getMessage();
    return why != null && why.contains("Invalid argument");
  }

  /**
   * O_DIRECT: whole aligned blocks go from an aligned buffer of the thread's straight to the disk; a write's unaligned
   * head or tail (an object's last bytes, a retry resuming mid-block) goes through the page cache, which the kernel
   * writes back before a direct read of its block. Reads back come from the disk, not from memory.
   */
  final class Direct implements FileIo {
    /** The alignment O_DIRECT needs of offsets, lengths and memory: a page, a multiple of every device's sector. */
    static final int BLOCK = 4096;
    /** Per write call: 1 MiB direct writes cost a third of the CPU per byte of 64 KiB ones (bench/results). */
    static final int CHUNK = 1 << 20;
    private static final ThreadLocal<ByteBuffer> ALIGNED =
        ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(CHUNK + BLOCK).alignedSlice(BLOCK));

    @Override
    public int chunk(int bufferSize) {
      return Math.max(CHUNK, bufferSize);
    }

    @Override
    public int fill(int chunk, long position) {
      return chunk >= 2 * BLOCK ? chunk - (int) Math.floorMod(position, (long) BLOCK) : chunk;
    }

    @Override
    public Writes writes(FileChannel channel, Path temp) throws IOException {
      FileChannel direct;
      try {
        direct = FileChannel.open(temp, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS, ExtendedOpenOption.DIRECT);
      } catch (IOException e) {
        if (refusesDirect(e)) return PAGE_CACHE.writes(channel, temp);
        throw e;
      }
      return new Writes() {
        private boolean refused;

        @Override
        public void write(byte[] bytes, int from, int to, long position) throws IOException {
          int head = (int) Math.min(to - from, Math.floorMod(-position, (long) BLOCK));
          if (head > 0 || refused) SparseWriter.write(channel, bytes, from, refused ? to : from + head, position);
          if (refused) return;
          int at = from + head;
          long p = position + head;
          ByteBuffer aligned = ALIGNED.get();
          for (int whole; (whole = (to - at) / BLOCK * BLOCK) > 0; ) {
            int n = Math.min(whole, CHUNK);
            aligned.clear();
            aligned.put(bytes, at, n).flip();
            try {
              while (aligned.hasRemaining()) direct.write(aligned, p + aligned.position());
            } catch (IOException e) {
              if (!refusesDirect(e) || aligned.position() > 0) throw e;
              refused = true; // opened, but its filesystem takes no direct writes: this file through the page cache
              SparseWriter.write(channel, bytes, at, to, p);
              return;
            }
            at += n;
            p += n;
          }
          if (at < to) SparseWriter.write(channel, bytes, at, to, p);
        }

        @Override
        public void close() throws IOException {
          direct.close();
        }
      };
    }

    @Override
    public Reads reads(Path temp) throws IOException {
      FileChannel channel;
      try {
        channel = FileChannel.open(temp, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS, ExtendedOpenOption.DIRECT);
      } catch (IOException e) {
        if (refusesDirect(e)) return PAGE_CACHE.reads(temp);
        throw e;
      }
      return new Reads() {
        private Reads refused;

        @Override
        public int read(byte[] into, int length, long position) throws IOException {
          if (refused != null) return refused.read(into, length, position);
          try {
            return Direct.read(channel, into, length, position);
          } catch (IOException e) {
            if (!refusesDirect(e)) throw e;
            refused = PAGE_CACHE.reads(temp); // its filesystem takes no direct reads
            return refused.read(into, length, position);
          }
        }

        @Override
        public long size() throws IOException {
          return channel.size();
        }

        @Override
        public void close() throws IOException {
          try (channel; Reads r = refused) {
            // both closed
          }
        }
      };
    }

    private static int read(FileChannel channel, byte[] into, int length, long position) throws IOException {
      long start = position - Math.floorMod(position, (long) BLOCK);
      int skip = (int) (position - start);
      ByteBuffer aligned = ALIGNED.get();
      int want = Math.min(CHUNK, length + skip);
      aligned.clear().limit((want + BLOCK - 1) / BLOCK * BLOCK);
      for (int r; aligned.hasRemaining() && (r = channel.read(aligned, start + aligned.position())) > 0; ) {
        if (aligned.position() % BLOCK != 0) break; // a short read: the file's end
      }
      int n = Math.min(want, aligned.position()) - skip;
      if (n <= 0) return -1;
      aligned.position(skip);
      aligned.get(into, 0, n);
      return n;
    }
  }
}
