package io.ferry.store.limits;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This JVM's share of the job's limits: the bytes per second its streams may move in all, and the requests per
 * second it may send to each endpoint. The driver divides the job's limits among the live executors and each
 * executor sets its share here (Spark's plugin channel, in the spark package); 0 means none.
 */
public final class Limits {
  /** Read size while a bandwidth limit is on: each wait stays short, so no stream looks stalled. */
  public static final int LIMITED_READ = 64 << 10;

  private static final RateLimit BANDWIDTH = new RateLimit(0);
  private static final Map<String, RateLimit> REQUESTS = new ConcurrentHashMap<>();
  private static volatile double requestsPerSecond;

  private Limits() {}

  public static RateLimit bandwidth() {
    return BANDWIDTH;
  }

  /** The request limit of one endpoint (its URL and region). */
  public static RateLimit requests(String endpoint) {
    return REQUESTS.computeIfAbsent(endpoint, e -> new RateLimit(requestsPerSecond));
  }

  /** This JVM's share: bytes per second for all its streams, requests per second for each endpoint. */
  public static void share(double bytesPerSecond, double requestsPerSecondPerEndpoint) {
    BANDWIDTH.set(bytesPerSecond);
    requestsPerSecond = requestsPerSecondPerEndpoint;
    for (RateLimit limit : REQUESTS.values()) limit.set(requestsPerSecondPerEndpoint);
  }
}
