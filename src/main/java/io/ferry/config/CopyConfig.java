package io.ferry.config;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/** How executors move the bytes of each range. */
public record CopyConfig(
    int streamsPerTask, int retries, Duration backoff, Duration maxBackoff, Duration stallTimeout, boolean skipUnchanged, int bufferSize)
    implements Serializable {
  public CopyConfig {
    if (streamsPerTask < 1) throw new IllegalArgumentException("streamsPerTask must be positive: " + streamsPerTask);
    if (retries < 0) throw new IllegalArgumentException("retries must not be negative: " + retries);
    Objects.requireNonNull(backoff, "backoff is null");
    Objects.requireNonNull(maxBackoff, "maxBackoff is null");
    Objects.requireNonNull(stallTimeout, "stallTimeout is null");
    if (bufferSize < 1) throw new IllegalArgumentException("bufferSize must be positive: " + bufferSize);
  }
}
