package io.ferry.report;

import java.time.Instant;

/**
 * What the driver knows of a run beyond its results, for the summary.
 *
 * @param deletions what the cut-over pass did (null when it had nothing to decide)
 * @param limitMBps {@code limits.bandwidth} in MB/s, 0 for none
 */
public record RunInfo(String job, String run, String source, String destination, Instant startedAt, long listed,
    long skippedUnchanged, long splitObjects, long listPages, long copyStartMillis, long copyEndMillis, StageTimes stages,
    RunSummary.Deletions deletions, double limitMBps, Delta delta) {
  /**
   * A delta pass's changes, or null for a full pass.
   *
   * @param from "events" or "inventory-diff"
   * @param keys the changed keys it looked up
   * @param hoursSinceLast hours since the last pass that read every change began; 0 where unknown
   */
  public record Delta(String from, long keys, double hoursSinceLast) {}
}
