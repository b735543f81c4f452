package io.ferry.copy;

import io.ferry.store.checksums.Checksum;
import io.ferry.store.StoreFailure;
import java.util.HexFormat;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;

/**
 * What one range has moved so far, across its attempts: bytes, their CRC32C (in order, each byte once), a digest in
 * the source's checksum algorithm where it keeps one, and the time to the first byte of the latest request. A
 * transfer that cannot resume calls {@link #restart()} before an attempt. A range that is a whole object with a
 * checksum to meet ({@link #expect}) is checked at its last byte, before that byte is handed on, so a write of a
 * mismatching object never completes. A watcher is told of the bytes while they move (a range over a thin link can take
 * minutes) and of those forgotten by a restart; {@link #settle()} takes back what it was told once the range has a result.
 */
public final class Progress {
  /** Bytes between two reports to the watcher: it is told often enough for a progress line, rarely enough to be free. */
  static final long REPORT_STEP = 1 << 20;
  private final CRC32C crc = new CRC32C();
  private final LongConsumer watcher;
  private long reported;
  private Checksum expected;
  private Checksum.Algorithm algorithm;
  private Checksum.Digest digest;
  private long bytes;
  private long requestStart = System.nanoTime();
  private long firstByteNanos = -1;

  /** @param watcher told of bytes moved (positive) and of bytes forgotten or settled (negative), in sum never below 0 */
  public Progress(LongConsumer watcher) {
    this.watcher = watcher;
  }

  /** Keeps a digest in {@code algorithm} beside the CRC32C (before any byte moved). */
  public void digest(Checksum.Algorithm algorithm) {
    if (bytes > 0 && this.algorithm != algorithm) throw new IllegalStateException("a digest must start before the first byte");
    if (this.algorithm != algorithm) {
      this.algorithm = algorithm;
      this.digest = Checksum.digest(algorithm);
    }
  }

  /** The range's bytes must match {@code checksum}; null: nothing to meet. Kept across attempts. */
  public void expect(Checksum checksum) {
    if (checksum == null || !checksum.checkable() || expected != null) return;
    expected = checksum;
    digest(checksum.algorithm());
  }

  public Checksum expected() {
    return expected;
  }

  /** Marks the start of a request, for time to first byte. */
  public void requestStarted() {
    requestStart = System.nanoTime();
  }

  public void moved(byte[] buffer, int offset, int length) {
    if (length <= 0) return;
    if (firstByteNanos < 0) firstByteNanos = System.nanoTime() - requestStart;
    crc.update(buffer, offset, length);
    if (digest != null) digest.update(buffer, offset, length);
    bytes += length;
    if (bytes - reported >= REPORT_STEP) {
      watcher.accept(bytes - reported);
      reported = bytes;
    }
  }

  /** Takes back from the watcher every byte it was told of: the range's result counts them from now on. */
  public void settle() {
    if (reported != 0) watcher.accept(-reported);
    reported = 0;
  }

  /** The range's last byte has been read: fails (and forgets the bytes) if they do not match what was expected. */
  void completed() throws StoreFailure {
    if (expected == null) return;
    String got = digest.value();
    if (got.equals(expected.value())) return;
    restart();
    throw new StoreFailure(StoreFailure.Kind.RETRYABLE, "the bytes read do not match the source's " + expected + ": read "
        + expected.algorithm().label() + " " + got);
  }

  /** Forgets the bytes moved so far: the next attempt sends the whole range again. */
  public void restart() {
    settle();
    crc.reset();
    if (algorithm != null) digest = Checksum.digest(algorithm);
    bytes = 0;
    firstByteNanos = -1;
  }

  public long bytes() {
    return bytes;
  }

  public long firstByteNanos() {
    return firstByteNanos;
  }

  public String crc32c() {
    return HexFormat.of().toHexDigits((int) crc.getValue());
  }

  /** "algorithm:value" of the digest kept in the source's algorithm, or "" when none. */
  public String checksum() {
    return algorithm == null ? "" : algorithm.label() + ":" + digest.value();
  }
}
