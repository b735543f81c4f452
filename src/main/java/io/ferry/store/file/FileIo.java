package io.ferry.store.file;

import com.sun.nio.file.ExtendedOpenOption;
import io.ferry.config.DirectoryConfig;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
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

  /** The mode of a destination at {@code root}: around the page cache aligned to its filesystem's block, else through it. */
  static FileIo of(DirectoryConfig.Writes how, Path root) {
    return how == DirectoryConfig.Writes.DIRECT ? new Direct(Direct.alignment(root)) : PAGE_CACHE;
  }

  /**
   * Why the filesystem under {@code root} refuses direct I/O, or empty where it takes it, and where no file can be
   * written there at all (the preflight says why): a probe file of the job's, written one block through the page cache,
   * then one block with O_DIRECT, then removed. Linux before 6.6 refuses it on tmpfs.
   */
  static Optional<String> refusal(Path root, String tag) {
    Path probe = KeyPaths.tempPath(root.resolve("direct-io-probe"), tag, KeyPaths.nonce());
    int block = Direct.alignment(root);
    try {
      try (FileChannel plain = FileChannel.open(probe, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
          LinkOption.NOFOLLOW_LINKS)) {
        plain.write(ByteBuffer.allocate(block), 0);
      } catch (IOException e) {
        return Optional.empty(); // not direct I/O's doing: a full disk, a folder not writable
      }
      try (FileChannel channel = FileChannel.open(probe, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS, ExtendedOpenOption.DIRECT)) {
        channel.write(ByteBuffer.allocateDirect(2 * block).alignedSlice(block).limit(block), 0);
        return Optional.empty();
      } catch (IOException | UnsupportedOperationException e) {
        return Optional.of(String.valueOf(e.getMessage()));
      }
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
   * O_DIRECT: whole aligned blocks go from an aligned buffer of the thread's straight to the disk; a write's unaligned
   * head or tail (an object's last bytes, a retry resuming mid-block) goes through the page cache, which the kernel
   * writes back before a direct read of its block. Reads back come from the disk, not from memory. A file whose first
   * direct open, write or read fails (a folder on a filesystem that refuses O_DIRECT, or wants larger blocks) is
   * written and read through the page cache instead, where a real failure (a full disk) shows with its own cause.
   */
  final class Direct implements FileIo {
    /** Per write call: 1 MiB direct writes cost a third of the CPU per byte of 64 KiB ones (bench/results). */
    static final int CHUNK = 1 << 20;
    /** The thread's aligned buffer: allocated again only for a larger alignment. */
    private static final ThreadLocal<ByteBuffer> ALIGNED = new ThreadLocal<>();
    /** Offsets, lengths and memory O_DIRECT needs aligned to: the filesystem's block (the JDK checks it), a page at least. */
    private final int block;

    Direct(int block) {
      this.block = block;
    }

    /** The filesystem's block at {@code root} (NFS: its wsize, often 1 MiB), at least a page and at most {@link #CHUNK}. */
    static int alignment(Path root) {
      try {
        long size = Files.getFileStore(root).getBlockSize();
        return (int) Math.min(CHUNK, Math.max(4096, Long.highestOneBit(size)));
      } catch (IOException | UnsupportedOperationException e) {
        return 4096;
      }
    }

    private ByteBuffer aligned() {
      ByteBuffer b = ALIGNED.get();
      if (b == null || b.capacity() < CHUNK || b.alignmentOffset(0, block) != 0) {
        b = ByteBuffer.allocateDirect(CHUNK + block).alignedSlice(block);
        ALIGNED.set(b);
      }
      return b;
    }

    @Override
    public int chunk(int bufferSize) {
      return Math.max(CHUNK, bufferSize);
    }

    @Override
    public int fill(int chunk, long position) {
      return chunk >= 2 * block ? chunk - (int) Math.floorMod(position, (long) block) : chunk;
    }

    @Override
    public Writes writes(FileChannel channel, Path temp) throws IOException {
      FileChannel direct;
      try {
        direct = FileChannel.open(temp, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS, ExtendedOpenOption.DIRECT);
      } catch (IOException refused) {
        return PAGE_CACHE.writes(channel, temp);
      }
      return new Writes() {
        private boolean refused;
        private boolean wrote;

        @Override
        public void write(byte[] bytes, int from, int to, long position) throws IOException {
          int head = (int) Math.min(to - from, Math.floorMod(-position, (long) block));
          if (head > 0 || refused) SparseWriter.write(channel, bytes, from, refused ? to : from + head, position);
          if (refused) return;
          int at = from + head;
          long p = position + head;
          ByteBuffer aligned = aligned();
          for (int whole; (whole = (to - at) / block * block) > 0; ) {
            int n = Math.min(whole, CHUNK);
            aligned.clear();
            aligned.put(bytes, at, n).flip();
            try {
              while (aligned.hasRemaining()) direct.write(aligned, p + aligned.position());
            } catch (IOException e) {
              if (wrote || aligned.position() > 0) throw e;
              refused = true; // its first direct write: this file through the page cache, where a real failure shows again
              SparseWriter.write(channel, bytes, at, to, p);
              return;
            }
            wrote = true;
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
      } catch (IOException refused) {
        return PAGE_CACHE.reads(temp);
      }
      return new Reads() {
        private Reads refused;
        private boolean read;

        @Override
        public int read(byte[] into, int length, long position) throws IOException {
          if (refused != null) return refused.read(into, length, position);
          try {
            int n = Direct.this.read(channel, into, length, position);
            read = true;
            return n;
          } catch (IOException e) {
            if (read) throw e;
            refused = PAGE_CACHE.reads(temp); // its first direct read: through the page cache, where a real failure shows again
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

    private int read(FileChannel channel, byte[] into, int length, long position) throws IOException {
      long start = position - Math.floorMod(position, (long) block);
      int skip = (int) (position - start);
      ByteBuffer aligned = aligned();
      int want = Math.min(CHUNK, length + skip);
      aligned.clear().limit((want + block - 1) / block * block);
      for (int r; aligned.hasRemaining() && (r = channel.read(aligned, start + aligned.position())) > 0; ) {
        if (aligned.position() % block != 0) break; // a short read: the file's end
      }
      int n = Math.min(want, aligned.position()) - skip;
      if (n <= 0) return -1;
      aligned.position(skip);
      aligned.get(into, 0, n);
      return n;
    }
  }
}
