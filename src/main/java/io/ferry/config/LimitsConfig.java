package io.ferry.config;

import java.io.Serializable;

/**
 * Limits for the whole job, divided among the live executors: bytes per second through the executors in all, and
 * requests per second to each endpoint; 0: none. {@code prefixRates}: a prefix that asks to slow down is held to one
 * rate for the whole job.
 */
public record LimitsConfig(long bytesPerSecond, double requestsPerSecond, boolean prefixRates) implements Serializable {
  public static final LimitsConfig NONE = new LimitsConfig(0, 0, false);

  public LimitsConfig {
    if (bytesPerSecond < 0 || requestsPerSecond < 0) throw new IllegalArgumentException("limits must not be negative");
  }

  /** Whether a limit is set that executors must hold before their first request (a rate per prefix starts unset). */
  public boolean fixed() {
    return bytesPerSecond > 0 || requestsPerSecond > 0;
  }
}
