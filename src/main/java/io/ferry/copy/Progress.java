package io.ferry.copy;

import java.util.zip.CRC32C;

/**
 * What one range has moved so far, across its attempts: bytes, their CRC32C (in order, each byte once) and the time
 * to the first byte of the latest request. A transfer that cannot resume calls {@link #restart()} before an attempt.
 */
public final class Progress {
  private final CRC32C crc = new CRC32C();
  private long bytes;
  private long requestStart = System.nanoTime();
  private long firstByteNanos = -1;

  /** Marks the start of a request, for time to first byte. */
  public void requestStarted() {
    requestStart = System.nanoTime();
  }

  public void moved(byte[] buffer, int offset, int length) {
    if (length <= 0) return;
    if (firstByteNanos < 0) firstByteNanos = System.nanoTime() - requestStart;
    crc.update(buffer, offset, length);
    bytes += length;
  }

  /** Forgets the bytes moved so far: the next attempt sends the whole range again. */
  public void restart() {
    crc.reset();
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
    return java.util.HexFormat.of().toHexDigits((int) crc.getValue());
  }
}
