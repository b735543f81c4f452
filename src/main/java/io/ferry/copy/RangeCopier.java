package io.ferry.copy;

import io.ferry.plan.RangeTask;
import io.ferry.store.Backoff;
import io.ferry.store.Failures;
import io.ferry.store.Retrier;
import io.ferry.store.Upload;

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

  public RangeResult copy(int taskId, RangeTask task, Upload upload) {
    long startedAt = System.currentTimeMillis();
    long start = System.nanoTime();
    Progress progress = new Progress();
    String location = transfer.location(task);
    int attempts = 0;
    while (true) {
      attempts++;
      if (!transfer.resumable()) progress.restart();
      try {
        String receipt = transfer.attempt(task, upload, progress);
        return result(taskId, task, upload, location, startedAt, start, progress, attempts, receipt, "");
      } catch (Exception e) {
        boolean retryable = Failures.isRetryable(e);
        if (!retryable || attempts > retries || Thread.currentThread().isInterrupted()) {
          String error = (retryable && attempts > retries ? "gave up after " + attempts + " attempts: " : "") + Failures.describe(e);
          return result(taskId, task, upload, location, startedAt, start, progress, attempts, "", error);
        }
        sleep(backoff.delayMillis(attempts - 1));
      }
    }
  }

  private RangeResult result(int taskId, RangeTask task, Upload upload, String location, long startedAt, long start,
      Progress progress, int attempts, String receipt, String error) {
    boolean ok = error.isEmpty();
    long payload = progress.bytes();
    long delivered = ok ? task.range().length() : (transfer.resumable() ? payload : 0);
    return new RangeResult(task.object(), location, taskId, task.partNumber(), task.partCount(),
        task.range().offset(), task.range().length(), delivered, transfer.serverSide() ? 0 : payload, startedAt,
        System.currentTimeMillis(), progress.firstByteNanos(), System.nanoTime() - start, attempts, transfer.method(),
        executorId, host, ok ? RangeResult.Status.OK : RangeResult.Status.FAILED, error, progress.crc32c(), upload.id(), receipt);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
