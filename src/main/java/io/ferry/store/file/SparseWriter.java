package io.ferry.store.file;

import io.ferry.store.StoreFailure;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.locks.Lock;

/**
 * How bytes are written into a file: in calls of at most {@link #WRITE_AT_MOST} bytes, whole blocks of zeros left as
 * holes (sparse), a range's bytes written before its source's failure goes on, a write error a fatal one of the local
 * disk's.
 */
final class SparseWriter {
  private SparseWriter() {}

  /** The block a hole is made of: ext4's, XFS's and NFS's usual one. */
  static final int SPARSE_BLOCK = 4096;
  /**
   * The most one write system call hands the kernel: larger writes into fresh page-cache memory cost more kernel CPU
   * per byte, and smaller ones add calls.
   */
  static final int WRITE_AT_MOST = 256 << 10;
  private static final byte[] ZEROS = new byte[SPARSE_BLOCK];
  /**
   * A new file at {@code temp}, created exclusively (never through a link). Only when its name is taken (an earlier
   * attempt's file, a planted link) is that removed, not followed, and the file created again: the name is free but for
   * a retry, and a lookup first would miss in a folder of many files at about the cost of the create.
   */
  static FileChannel createFresh(Path temp) throws IOException {
    try {
      return FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (FileAlreadyExistsException taken) {
      Files.deleteIfExists(temp);
      return FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }
  }

  /**
   * Reads up to {@code chunk} bytes (whole blocks make holes); where the source fails part-way, the bytes it gave are
   * written before the failure goes on, so a retry that resumes after the bytes counted finds them all written.
   */
  static int fill(InputStream in, byte[] buffer, int chunk, FileChannel channel, FileIo.Writes out, long position, Lock lock)
      throws IOException {
    int n = 0;
    try {
      for (int r; n < chunk && (r = in.read(buffer, n, chunk - n)) > 0; ) n += r;
    } catch (IOException | RuntimeException failed) {
      if (n > 0) write(channel, out, buffer, n, position, lock);
      throw failed;
    }
    return n;
  }

  static void write(FileChannel channel, FileIo.Writes out, byte[] buffer, int n, long position, Lock lock) throws StoreFailure {
    if (lock != null) lock.lock();
    try {
      writeSparse(channel, out, buffer, n, position);
    } catch (IOException e) {
      throw localWrite(e);
    } finally {
      if (lock != null) lock.unlock();
    }
  }

  /**
   * Writes {@code bytes[0, n)} at {@code position}, leaving each whole filesystem block of zeros unwritten: a hole,
   * which reads as zeros and takes no space, so a sparse file (a disk image, a database file) lands sparse, as
   * {@code cp --sparse=always} writes it. A zero block costs a vectorized compare, data a compare that stops at its
   * first byte. A zero block is left unwritten only where the file reads zeros already (a hole, or past its end): a
   * part written again over other bytes (a repair of a part that failed its check) writes its zeros. The channel must
   * be readable; the data goes through {@code out}.
   */
  static void writeSparse(FileChannel channel, FileIo.Writes out, byte[] bytes, int n, long position) throws IOException {
    int pending = 0; // start of the bytes not yet written
    int i = 0;
    byte[] held = null;
    while (i < n) {
      int end = (int) Math.min(n, i + SPARSE_BLOCK - Math.floorMod(position + i, SPARSE_BLOCK));
      if (end - i == SPARSE_BLOCK && Arrays.mismatch(bytes, i, end, ZEROS, 0, SPARSE_BLOCK) < 0) {
        if (held == null) held = new byte[SPARSE_BLOCK];
        if (readsZeros(channel, position + i, held)) {
          out.write(bytes, pending, i, position + pending);
          pending = end;
        }
      }
      i = end;
    }
    out.write(bytes, pending, n, position + pending);
  }

  /** Whether the file's block at {@code at} reads as zeros (a hole reads so without a disk read; past the end, too). */
  static boolean readsZeros(FileChannel channel, long at, byte[] held) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(held);
    for (int r; b.hasRemaining() && (r = channel.read(b, at + b.position())) >= 0; ) {
      if (r == 0) break;
    }
    return Arrays.mismatch(held, 0, b.position(), ZEROS, 0, b.position()) < 0;
  }

  /** {@code bytes[from, to)} at {@code position}, through the page cache. */
  static void write(FileChannel channel, byte[] bytes, int from, int to, long position) throws IOException {
    for (int at = from; at < to; ) {
      ByteBuffer b = ByteBuffer.wrap(bytes, at, Math.min(WRITE_AT_MOST, to - at));
      while (b.hasRemaining()) channel.write(b, position + b.position() - from); // bytes[from + i] goes to position + i
      at = b.position();
    }
  }

  /** The destination filesystem refused a write (disk full, I/O error): not a network fault, never retried. */
  static StoreFailure localWrite(IOException e) {
    return new StoreFailure(StoreFailure.Kind.FATAL, "write failed: " + e.getMessage(), e);
  }
}
