package io.ferry.config;

import java.io.Serializable;
import java.util.Objects;

/**
 * What {@code plan} prices a job with: each side's request and egress prices (USD), and the throughput its time
 * estimate assumes.
 *
 * @param expectedMBps 0: the aggregate rate of the job's last run, if it has one
 */
public record EstimateConfig(Prices source, Prices destination, double expectedMBps) implements Serializable {
  public EstimateConfig {
    Objects.requireNonNull(source, "source is null");
    Objects.requireNonNull(destination, "destination is null");
    if (expectedMBps < 0) throw new IllegalArgumentException("expectedMBps must not be negative: " + expectedMBps);
  }

  /**
   * A provider's prices in S3's request classes: PUT, COPY, POST and LIST requests are writes; GET and HEAD are
   * reads; DELETE is free.
   *
   * @param egressPerGB per GB (10^9 bytes) of object bytes read out of the provider
   */
  public record Prices(double writePer1000, double readPer1000, double egressPerGB) implements Serializable {
    public Prices {
      if (writePer1000 < 0 || readPer1000 < 0 || egressPerGB < 0) throw new IllegalArgumentException("prices must not be negative");
    }
  }
}
