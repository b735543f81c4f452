package io.ferry.copy;

import io.ferry.plan.RangeTask;
import io.ferry.store.Backoff;
import io.ferry.store.Checksum;
import io.ferry.store.Failures;
import io.ferry.store.Retrier;
import io.ferry.store.Upload;
import java.util.function.LongConsumer;

/**
 * Copies one range with the job's one retry layer: a retryable failure (5xx, SlowDown, reset, stall, short body)
 * waits with jittered backoff and tries again, from the last byte written where the transfer can resume; a fatal one
 * (403, 404, 412, a local write error) ends the range at once. Never throws for a failed range: the failure is a
 * {@link RangeResult} with status FAILED, so the report holds every range. Free of Spark.
 */
public final class RangeCopier {
  private final RangeTransfer transfer;
  private final int retries;
  private final Backoff backoff;
  private final String executorId;
  private final String host;

  /** @param policy the job's retries and backoff, which this applies to ranges (resuming them) */
  public RangeCopier(RangeTransfer transfer, Retrier policy, String executorId, String host) {
    this.transfer = transfer;
    this.retries = policy.retries();
    this.backoff = policy.backoff();
    this.executorId = executorId;
    this.host = host;
  }

  /** A range written whole, or a part whose object has no source checksum to keep a digest for. */
  public RangeResult copy(long taskId, RangeTask task, Upload upload) {
    return copy(taskId, task, upload, null);
  }

  /**
   * @param expected the source's checksum of the range's object (a part of it keeps a digest in its algorithm, for
   *     the commit to combine); null when there is none, or the object is copied whole (its own read says)
   */
  public RangeResult copy(long taskId, RangeTask task, Upload upload, Checksum expected) {
    return copy(taskId, task, upload, expected, n -> {});
  }

  /** @param moving told of the range's bytes while they move, and takes them back before the result is returned */
  public RangeResult copy(long taskId, RangeTask task, Upload upload, Checksum expected, LongConsumer moving) {
    long startedAt = System.currentTimeMillis();
    long start = System.nanoTime();
    Progress progress = new Progress(moving);
    if (expected != null && expected.checkable() && expected.algorithm().combinable() && !task.wholeObject()) {
      progress.digest(expected.algorithm());
    }
    String location = transfer.location(task);
    int attempts = 0;
    while (true) {
      attempts++;
      if (!transfer.resumable(task)) progress.restart();
      try {
        String receipt = transfer.attempt(task, upload, progress);
        return result(taskId, task, upload, location, startedAt, start, progress, attempts, receipt, "", expected);
      } catch (Exception e) {
        boolean retryable = Failures.isRetryable(e);
        if (!retryable || attempts > retries || Thread.currentThread().isInterrupted()) {
          String error = (retryable && attempts > retries ? "gave up after " + attempts + " attempts: " : "") + Failures.describe(e);
          return result(taskId, task, upload, location, startedAt, start, progress, attempts, "", error, expected);
        }
        sleep(backoff.delayMillis(attempts - 1));
      }
    }
  }

  private RangeResult result(long taskId, RangeTask task, Upload upload, String location, long startedAt, long start,
      Progress progress, int attempts, String receipt, String error, Checksum partsOf) {
    progress.settle();
    Checksum expected = progress.expected() != null ? progress.expected() : partsOf;
    long payload = progress.bytes();
    long delivered = error.isEmpty() ? task.range().length() : (transfer.resumable(task) ? payload : 0);
    return RangeResult.of(task.object(), location).task(taskId)
        .part(task.partNumber(), task.partCount(), task.range().offset(), task.range().length())
        .bytes(delivered, transfer.serverSide() ? 0 : payload)
        .times(startedAt, System.currentTimeMillis(), progress.firstByteNanos(), System.nanoTime() - start).attempts(attempts)
        .by(transfer.method(), executorId, host).error(error)
        .digests(progress.crc32c(), progress.checksum(), expected == null ? "" : expected.text()).upload(upload.id(), receipt).build();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
