package io.ferry.store.limits;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The job's request rate per key prefix, kept by the driver from every executor's reports ({@link PrefixRates}):
 * multiplicative decrease and increase over the whole job, as {@link Throttle} is over one JVM. A prefix has no rate
 * until an answer asks to slow down; then its rate is four fifths of what the prefix accepted from the whole job over
 * the last second (the requests not asked to slow down), at most once a {@code cooldown} (the answers to requests sent
 * together are one signal); each second without such an answer raises it by a twentieth, so it probes back towards
 * what the prefix takes, and after {@code release} without one the prefix has no rate again (its partition split).
 */
public final class PrefixControl {
  /** The least rate a prefix is held to, in requests per second (and the least share of it an executor gets). */
  public static final double FLOOR = 1;
  /** The rate after an answer asking to slow down, as a share of what the prefix accepted. */
  static final double BACKOFF = 0.8;
  /** The growth per second without an answer asking to slow down. */
  static final double GROWTH = 0.05;

  private final long cooldownNanos;
  private final long releaseNanos;
  private final Map<String, Prefix> prefixes = new HashMap<>();

  private static final class Prefix {
    double rate; // 0: none
    long lastDecrease = Long.MIN_VALUE / 2;
    long lastRaise;
    long windowStart;
    long sentInWindow;
    long throttledInWindow;
    double acceptedPerSecond; // over the last whole window
    long throttled;
  }

  public PrefixControl(long cooldownMillis, long releaseMillis) {
    this.cooldownNanos = TimeUnit.MILLISECONDS.toNanos(cooldownMillis);
    this.releaseNanos = TimeUnit.MILLISECONDS.toNanos(releaseMillis);
  }

  /** One executor's report at {@code now} (nanoseconds): requests sent to the prefix, and answers asking to slow down. */
  public synchronized void report(String prefix, long sent, long throttled, long now) {
    Prefix p = prefixes.computeIfAbsent(prefix, k -> {
      Prefix fresh = new Prefix();
      fresh.windowStart = now;
      return fresh;
    });
    roll(p, now);
    p.sentInWindow += sent;
    p.throttledInWindow += throttled;
    p.throttled += throttled;
    if (throttled > 0 && now - p.lastDecrease >= cooldownNanos) {
      double elapsed = (now - p.windowStart) / 1e9;
      // a window of a quarter second at least: the first answers come before a whole window has passed
      double accepted = Math.max(p.acceptedPerSecond, (p.sentInWindow - p.throttledInWindow) / Math.max(0.25, elapsed));
      p.rate = Math.max(FLOOR, (p.rate > 0 ? Math.min(p.rate, accepted) : accepted) * BACKOFF);
      p.lastDecrease = now;
      p.lastRaise = now;
    }
  }

  /** The rates at {@code now}: each prefix held to one, in requests per second for the whole job. */
  public synchronized Map<String, Double> rates(long now) {
    Map<String, Double> out = new HashMap<>();
    prefixes.forEach((prefix, p) -> {
      roll(p, now);
      if (p.rate <= 0) return;
      if (now - p.lastDecrease >= releaseNanos) {
        p.rate = 0;
        return;
      }
      if (now - p.lastDecrease >= cooldownNanos) {
        p.rate *= Math.pow(1 + GROWTH, (now - p.lastRaise) / 1e9);
        p.lastRaise = now;
      }
      out.put(prefix, p.rate);
    });
    return out;
  }

  /** Answers asking to slow down reported for {@code prefix} in all. */
  public synchronized long throttled(String prefix) {
    Prefix p = prefixes.get(prefix);
    return p == null ? 0 : p.throttled;
  }

  /** A whole second past: what the prefix accepted in it becomes the rate it accepts. */
  private static void roll(Prefix p, long now) {
    long elapsed = now - p.windowStart;
    if (elapsed < 1_000_000_000L) return;
    p.acceptedPerSecond = (p.sentInWindow - p.throttledInWindow) / (elapsed / 1e9);
    p.sentInWindow = 0;
    p.throttledInWindow = 0;
    p.windowStart = now;
  }
}
