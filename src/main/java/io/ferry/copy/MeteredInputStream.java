package io.ferry.copy;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts, checksums and times the bytes read through it into a {@link Progress}; stops at {@code limit} bytes. */
public final class MeteredInputStream extends FilterInputStream {
  private final Progress progress;
  private long remaining;

  public MeteredInputStream(InputStream in, Progress progress, long limit) {
    super(in);
    this.progress = progress;
    this.remaining = limit;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (remaining <= 0) return -1;
    if (Thread.currentThread().isInterrupted()) throw new java.io.InterruptedIOException("the task was cancelled");
    int n = super.read(buffer, offset, (int) Math.min(length, remaining));
    if (n > 0) {
      progress.moved(buffer, offset, n);
      remaining -= n;
    } else if (n < 0 && remaining > 0) {
      throw new IOException("the source stream ended " + remaining + " bytes early");
    }
    return n;
  }

  @Override
  public long skip(long n) {
    throw new UnsupportedOperationException("a metered stream is read in full");
  }

  @Override
  public boolean markSupported() {
    return false;
  }
}
