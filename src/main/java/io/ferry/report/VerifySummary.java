package io.ferry.report;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * The versioned summary of a {@code ferry verify} run ({@code summary.json}, name "ferry-verify-summary", version 1):
 * how many objects compare how, the bytes read to compare them, the first differences. Fields are only added within
 * a version.
 */
public record VerifySummary(String name, int version, String job, String run, String source, String destination,
    String startedAt, double wallSeconds, Map<String, Long> objects, long bytesRead, List<Difference> differences, String reportPath) {
  public static final String NAME = "ferry-verify-summary";
  public static final int VERSION = 1;
  /** The differences the summary lists; the dataset holds them all. */
  public static final int DIFFERENCES = 100;

  /** An object that does not match, and why. */
  public record Difference(String key, String status, String detail) implements Serializable {}

  /** True when every object of the source is at the destination with the same bytes (extra objects are allowed). */
  public boolean matches() {
    return objects.entrySet().stream().noneMatch(e -> !e.getKey().equals("MATCH") && !e.getKey().equals("EXTRA") && e.getValue() > 0);
  }
}
