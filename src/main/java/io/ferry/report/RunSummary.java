package io.ferry.report;

import io.ferry.plan.CutOverPlan;

import java.util.List;
import java.util.Map;

/**
 * The versioned summary of a run ({@code summary.json}, name "ferry-run-summary", version 1): what was asked, what
 * happened, how fast, and why that fast ({@code verdict}: null in summaries older than it). A public format: fields
 * are only added, never renamed, within a version. {@code convergence}: a delta pass's (null for a full pass, and in
 * summaries older than it).
 */
public record RunSummary(
    String name,
    int version,
    String job,
    String run,
    String source,
    String destination,
    String startedAt,
    String finishedAt,
    double wallSeconds,
    Objects objects,
    Bytes bytes,
    Ranges ranges,
    Throughput throughput,
    Map<String, Long> requests,
    Map<String, Long> verification,
    Map<String, Double> stageSeconds,
    List<Straggler> stragglers,
    List<Failure> failures,
    String reportPath,
    Deletions deletions,
    Verdict verdict,
    List<Streams> streams,
    Convergence convergence) {

  public static final String NAME = "ferry-run-summary";
  public static final int VERSION = 1;

  /**
   * @param missing named by the manifest but gone from the source
   * @param deleted extraneous objects deleted at the destination (delete-extraneous)
   * @param notCopied held by the source and left by the job's settings, each reported (symbolic links not followed,
   *     archived objects skipped)
   * @param archived archived at the source and not copied by this run: skipped, failed, or restoring
   * @param restoring of those, the ones whose restore was requested and has not finished: a rerun copies them
   * @param carriedInPart copied without some of what the source told of them (its {@code not_carried} column says what)
   */
  public record Objects(long listed, long planned, long copied, long skippedUnchanged, long failed, long missing, long deleted,
      long notCopied, long archived, long restoring, long carriedInPart) {}

  /** @param throughExecutors payload that passed through Spark executors (less than copied when copies stayed server-side) */
  public record Bytes(long planned, long copied, long throughExecutors) {}

  public record Ranges(long total, long ok, long failed, long retries, long splitObjects) {}

  /**
   * Aggregate: copied bytes over wall time of the copy stage; per range: percentiles of each range's own rate.
   *
   * @param copyStartedAtMillis when the copy stage began (epoch ms; 0 in older runs): the timeline the verdict measures
   *     from, so that {@code ferry report} draws the run's own verdict again
   */
  public record Throughput(double aggregateMBps, double copyStageSeconds, double rangeP50MBps, double rangeP90MBps,
      double rangeP99MBps, double rangeMaxMBps, double firstByteP50Ms, long copyStartedAtMillis) {}

  public record Straggler(String key, int part, long bytes, double seconds, double mbps, String executor, int attempts) {}

  public record Failure(String key, String error) {}

  /**
   * The streams an executor allowed at once, where {@code copy.streams-per-task = auto} changed them: at its first and
   * last range's start, the fewest and the most (the ranges dataset's {@code streams} column has each range's).
   */
  public record Streams(String executor, int first, int last, int least, int most) {}

  /**
   * The cut-over pass ({@code destination.delete-extraneous}); null when it had nothing to decide.
   *
   * @param outcome {@link CutOverPlan.Outcome#word}: "ran", "skipped" (the run did not copy everything it selected) or
   *     "refused" (over max-delete)
   * @param planned the destination's objects in the selection that the source's listing lacked
   * @param kept of those, the ones the source turned out to hold when asked right before the delete
   */
  public record Deletions(String outcome, String reason, long planned, long deleted, long moved, long kept, long failed) {
    public static Deletions notRun(CutOverPlan.Outcome outcome, String reason, long planned) {
      return new Deletions(outcome.word(), reason, planned, 0, 0, 0, 0);
    }

    public static Deletions ran(long planned, long deleted, long moved, long kept, long failed) {
      return new Deletions(CutOverPlan.Outcome.RUN.word(), "", planned, deleted, moved, kept, failed);
    }

    public boolean ran() {
      return outcome.equals(CutOverPlan.Outcome.RUN.word());
    }

    public boolean refused() {
      return outcome.equals(CutOverPlan.Outcome.REFUSED.word());
    }
  }

  /** Objects being restored at the source, which a rerun copies once restored: the migration is not complete. */
  public boolean pending() {
    return objects.restoring() > 0;
  }

  /** No selected object failed, and a cut-over pass asked for was neither refused nor failed on any object. */
  public boolean succeeded() {
    return objects.failed() == 0 && (deletions == null || !deletions.refused() && deletions.failed() == 0);
  }
}
