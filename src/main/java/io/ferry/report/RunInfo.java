package io.ferry.report;

import java.time.Instant;

/**
 * What the driver knows of a run beyond its results, for the summary.
 *
 * @param deletions what the cut-over pass did (null when it had nothing to decide)
 */
public record RunInfo(String job, String run, String source, String destination, Instant startedAt, long listed,
    long skippedUnchanged, long splitObjects, long listPages, long copyStartMillis, long copyEndMillis, StageTimes stages,
    RunSummary.Deletions deletions) {}
