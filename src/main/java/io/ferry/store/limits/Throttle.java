package io.ferry.store.limits;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * How many requests this JVM keeps in flight to one endpoint, adapted to the endpoint's answers (additive increase,
 * multiplicative decrease, as TCP does): a throttling answer (503 SlowDown, 429) halves the limit for every stream of
 * the JVM, at most once per {@code cooldown} (a burst of answers to requests sent together is one signal); every
 * request that goes through raises it by 1/limit, so it climbs back by one per limit's worth of successes.
 */
public final class Throttle {
  private int max;
  private final long cooldownNanos;
  private final LongSupplier clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition room = lock.newCondition();
  private double limit;
  private int inFlight;
  private long lastDecrease = Long.MIN_VALUE / 2;
  private final AtomicLong throttled = new AtomicLong();
  private final AtomicLong decreases = new AtomicLong();
  private volatile int lowest;

  public Throttle(int max, long cooldownMillis) {
    this(max, cooldownMillis, System::nanoTime);
  }

  Throttle(int max, long cooldownMillis, LongSupplier clock) {
    if (max < 1) throw new IllegalArgumentException("max must be positive: " + max);
    this.max = max;
    this.cooldownNanos = TimeUnit.MILLISECONDS.toNanos(cooldownMillis);
    this.clock = clock;
    this.limit = max;
    this.lowest = max;
  }

  /** Lets up to {@code requests} be in flight when the endpoint allows (the largest pool of this JVM's clients for it). */
  public void raiseMax(int requests) {
    lock.lock();
    try {
      if (requests > max) {
        if (limit >= max) limit = requests; // not throttled now: the new room is usable at once
        max = requests;
        room.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Waits until a request may go out; every acquire is followed by one {@link #release}. */
  public void acquire() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (inFlight >= (int) limit) room.await();
      inFlight++;
    } finally {
      lock.unlock();
    }
  }

  /** A request's answer arrived (or it failed); {@code throttled}: the endpoint asked to slow down. */
  public void release(boolean wasThrottled) {
    lock.lock();
    try {
      inFlight--;
      if (wasThrottled) {
        throttled.incrementAndGet();
        long now = clock.getAsLong();
        if (now - lastDecrease >= cooldownNanos) {
          limit = Math.max(1, Math.floor(limit / 2));
          lastDecrease = now;
          decreases.incrementAndGet();
          lowest = Math.min(lowest, (int) limit);
        }
      } else if (limit < max) {
        limit = Math.min(max, limit + 1 / limit);
      }
      room.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The requests allowed in flight now. */
  public int limit() {
    lock.lock();
    try {
      return (int) limit;
    } finally {
      lock.unlock();
    }
  }

  /** The least the limit has been. */
  public int lowest() {
    return lowest;
  }

  /** Throttling answers seen. */
  public long throttled() {
    return throttled.get();
  }

  /** Times the limit was halved. */
  public long decreases() {
    return decreases.get();
  }
}
