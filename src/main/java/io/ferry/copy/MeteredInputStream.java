package io.ferry.copy;

import io.ferry.store.limits.Limits;
import io.ferry.store.limits.RateLimit;
import io.ferry.store.StoreFailure;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.function.Consumer;

/**
 * Counts, checksums and times the bytes read through it into a {@link Progress}, held to the JVM's share of the
 * job's bandwidth ({@link Limits}); stops at {@code limit} bytes and
 * fails if its source ends before, or if the range's bytes do not match what the source said they are. Closing it after its last byte
 * closes the source (its connection goes back to the
 * pool); closing it part-way discards the source without draining it (a stalled body would stall the close too).
 */
public final class MeteredInputStream extends FilterInputStream {
  private final Progress progress;
  private final Consumer<InputStream> discard;
  private long remaining;
  private boolean closed;

  public MeteredInputStream(InputStream in, Progress progress, long limit, Consumer<InputStream> discard) throws StoreFailure {
    super(in);
    this.progress = progress;
    this.remaining = limit;
    this.discard = discard;
    if (limit == 0) progress.completed();
  }

  /** The source stream, for what it carries beside its bytes (the headers of a GET's answer). */
  public InputStream source() {
    return in;
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
    if (Thread.currentThread().isInterrupted()) throw new InterruptedIOException("the task was cancelled");
    RateLimit limit = Limits.bandwidth();
    int n = super.read(buffer, offset, (int) Math.min(limit.limited() ? Math.min(length, Limits.LIMITED_READ) : length, remaining));
    if (n > 0) {
      limit.acquire(n);
      progress.moved(buffer, offset, n);
      remaining -= n;
      if (remaining == 0) progress.completed(); // before the last bytes are handed on
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

  @Override
  public void close() throws IOException {
    if (closed) return;
    closed = true;
    if (remaining == 0) {
      in.close();
    } else {
      discard.accept(in);
    }
  }
}
