package io.ferry.copy;

import io.ferry.plan.RangeTask;
import io.ferry.source.S3Errors;
import java.util.function.Function;

/**
 * Copies one range with the job's one retry layer: a retryable failure (5xx, SlowDown, reset, stall, short body)
 * waits with jittered backoff and tries again, from the last byte written where the transfer can resume; a fatal one
 * (403, 404, 412, a local write error) ends the range at once. Never throws for a failed range: the failure is a
 * {@link RangeResult} with status FAILED, so the report holds every range. Free of Spark.
 */
public final class RangeCopier {
  private final Function<RangeTask, RangeTransfer> transfers;
  private final int retries;
  private final Backoff backoff;
  private final String executorId;
  private final String host;

  /** @param transfers the transfer for a range: chosen per object (stream to a file or bucket, server-side copy) */
  public RangeCopier(Function<RangeTask, RangeTransfer> transfers, int retries, Backoff backoff, String executorId, String host) {
    this.transfers = transfers;
    this.retries = retries;
    this.backoff = backoff;
    this.executorId = executorId;
    this.host = host;
  }

  public RangeResult copy(int taskId, RangeTask task) {
    long startedAt = System.currentTimeMillis();
    long start = System.nanoTime();
    RangeTransfer transfer = transfers.apply(task);
    Progress progress = new Progress();
    String destination;
    try {
      destination = transfer.destination(task);
    } catch (Exception e) {
      return result(taskId, task, transfer, "", startedAt, start, progress, 0, "", "unsafe key: " + e.getMessage());
    }
    int attempts = 0;
    while (true) {
      attempts++;
      if (!transfer.resumable()) progress.restart();
      try {
        String etag = transfer.attempt(task, progress);
        return result(taskId, task, transfer, destination, startedAt, start, progress, attempts, etag, "");
      } catch (Exception e) {
        boolean retryable = !(e instanceof StreamToFile.LocalWriteException) && S3Errors.isRetryable(e);
        if (!retryable || attempts > retries || Thread.currentThread().isInterrupted()) {
          String error = (retryable && attempts > retries ? "gave up after " + attempts + " attempts: " : "") + S3Errors.describe(e);
          return result(taskId, task, transfer, destination, startedAt, start, progress, attempts, "", error);
        }
        sleep(backoff.delayMillis(attempts - 1));
      }
    }
  }

  private RangeResult result(int taskId, RangeTask task, RangeTransfer transfer, String destination, long startedAt,
      long start, Progress progress, int attempts, String etag, String error) {
    boolean ok = error.isEmpty();
    long payload = progress.bytes();
    long delivered = ok ? task.range().length() : (transfer.resumable() ? payload : 0);
    return new RangeResult(task.object(), destination, taskId, task.partNumber(), task.partCount(),
        task.range().offset(), task.range().length(), delivered, payload, startedAt, System.currentTimeMillis(),
        progress.firstByteNanos(), System.nanoTime() - start, attempts, transfer.method(), executorId, host,
        ok ? RangeResult.Status.OK : RangeResult.Status.FAILED, error, progress.crc32c(), task.uploadId(), etag);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
