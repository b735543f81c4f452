package io.ferry.store.limits;

import java.io.InterruptedIOException;

/**
 * A rate shared by the threads of one JVM (bytes or requests per second; 0: none): each caller reserves the next
 * slot for what it used and waits until the slot ends, so over any stretch the units let through stay at the rate,
 * however many threads share it. Idle time is not saved up as credit (no burst after a pause).
 */
public final class RateLimit {
  private volatile double perSecond;
  private long nextFreeNanos = System.nanoTime();

  public RateLimit(double perSecond) {
    set(perSecond);
  }

  public void set(double perSecond) {
    if (perSecond < 0 || Double.isNaN(perSecond)) throw new IllegalArgumentException("a rate must not be negative: " + perSecond);
    this.perSecond = perSecond;
  }

  /** The rate now (0: none). */
  public double perSecond() {
    return perSecond;
  }

  public boolean limited() {
    return perSecond > 0;
  }

  /** Waits until {@code units} fit under the rate (at once when unlimited). */
  public void acquire(long units) throws InterruptedIOException {
    double rate = perSecond;
    if (rate <= 0 || units <= 0) return;
    long waitNanos;
    synchronized (this) {
      long now = System.nanoTime();
      long start = Math.max(nextFreeNanos, now);
      nextFreeNanos = start + (long) (units * 1e9 / rate);
      waitNanos = nextFreeNanos - now;
    }
    if (waitNanos <= 0) return;
    try {
      Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while held to the rate limit");
    }
  }
}
