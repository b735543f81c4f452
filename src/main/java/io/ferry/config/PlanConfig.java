package io.ferry.config;

import java.io.Serializable;

/** How objects become range tasks. */
public record PlanConfig(long partSize, long bundleSize, int bundleObjects) implements Serializable {
  public PlanConfig {
    if (partSize < 1) throw new IllegalArgumentException("partSize must be positive: " + partSize);
    if (bundleSize < 1) throw new IllegalArgumentException("bundleSize must be positive: " + bundleSize);
    if (bundleObjects < 1) throw new IllegalArgumentException("bundleObjects must be positive: " + bundleObjects);
  }
}
