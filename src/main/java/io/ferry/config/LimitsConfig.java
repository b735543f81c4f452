package io.ferry.config;

import java.io.Serializable;

/**
 * Limits for the whole job, divided among the live executors: bytes per second through the executors in all, and
 * requests per second to each endpoint; 0: none.
 */
public record LimitsConfig(long bytesPerSecond, double requestsPerSecond) implements Serializable {
  public static final LimitsConfig NONE = new LimitsConfig(0, 0);

  public LimitsConfig {
    if (bytesPerSecond < 0 || requestsPerSecond < 0) throw new IllegalArgumentException("limits must not be negative");
  }
}
