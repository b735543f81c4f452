package io.ferry.store.retry;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** Exponential backoff with full jitter: attempt n waits a random time in [0, min(max, base * 2^n)). */
public record Backoff(Duration base, Duration max) {
  public long delayMillis(int attempt) {
    long cap = Math.min(max.toMillis(), base.toMillis() << Math.min(attempt, 20));
    return cap <= 0 ? 0 : ThreadLocalRandom.current().nextLong(cap);
  }
}
