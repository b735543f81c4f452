package io.ferry.copy;

import io.ferry.plan.RangeTask;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.StoreFailure;
import io.ferry.store.retry.Failures;
import io.ferry.store.retry.Retrier;
import io.ferry.store.Upload;
import java.io.IOException;
import java.util.function.LongConsumer;

/**
 * Copies one range with the job's one retry layer: a retryable failure (5xx, SlowDown, reset, stall, short body)
 * waits with jittered backoff and tries again, from the last byte written where the transfer can resume; a fatal one
 * (403, 404, 412, a local write error) ends the range at once. Never throws for a failed range: the failure is a
 * {@link RangeResult} with status FAILED, so the report holds every range. Free of Spark.
 */
public final class RangeCopier {
  private final RangeTransfer transfer;
  private final Retrier retrier;
  private final String executorId;
  private final String host;
  private final InOrderDigests inOrder;
  private final InOrderDigests.Reader readBack;

  /** @param policy the job's retries and backoff, which this applies to ranges (resuming them) */
  public RangeCopier(RangeTransfer transfer, Retrier policy, String executorId, String host) {
    this(transfer, policy, executorId, host, null, null);
  }

  /**
   * @param inOrder where the parts of objects whose source keeps only an MD5 are digested as they land (null: none)
   * @param readBack reads landed bytes back from the destination, for {@code inOrder}
   */
  public RangeCopier(RangeTransfer transfer, Retrier policy, String executorId, String host, InOrderDigests inOrder,
      InOrderDigests.Reader readBack) {
    this.transfer = transfer;
    this.retrier = policy;
    this.executorId = executorId;
    this.host = host;
    this.inOrder = inOrder;
    this.readBack = readBack;
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
    Copying c = new Copying(taskId, task, upload, expected, new Progress(moving));
    if (expected != null && expected.checkable() && expected.algorithm().combinable() && !task.wholeObject()) {
      c.progress.digest(expected.algorithm());
    }
    try {
      String receipt = retrier.attempts(attempt -> {
        c.attempts = attempt;
        if (!transfer.resumable(task)) c.progress.restart();
        return transfer.attempt(task, upload, c.progress);
      }, failure -> c.throttled += Failures.classify(failure) == StoreFailure.Kind.THROTTLED ? 1 : 0);
      return result(c, receipt, "");
    } catch (IOException | RuntimeException e) {
      boolean gaveUp = Failures.isRetryable(e) && c.attempts > retrier.retries();
      if (Failures.classify(e) == StoreFailure.Kind.THROTTLED) c.throttled++; // the last answer, not retried
      return result(c, "", (gaveUp ? "gave up after " + c.attempts + " attempts: " : "") + Failures.describe(e));
    }
  }

  /** One range being copied: what it is, when it began, its progress, and the attempts made (of them, those slowed down). */
  private final class Copying {
    final long taskId;
    final RangeTask task;
    final Upload upload;
    final Checksum expected;
    final Progress progress;
    final String location;
    final long startedAt = System.currentTimeMillis();
    final long start = System.nanoTime();
    int attempts;
    int throttled;

    Copying(long taskId, RangeTask task, Upload upload, Checksum expected, Progress progress) {
      this.taskId = taskId;
      this.task = task;
      this.upload = upload;
      this.expected = expected;
      this.progress = progress;
      this.location = transfer.location(task);
    }
  }

  /**
   * A part of an object whose source keeps only its MD5, once landed (and recorded), adds to the object's digest in
   * order ({@link InOrderDigests}); the result carries the object's digest where it completed it. Any other result is
   * returned as it is.
   */
  public RangeResult inOrder(RangeTask task, Upload upload, Checksum expected, RangeResult landed) {
    if (inOrder == null || landed.status() != RangeResult.Status.OK || task.wholeObject() || transfer.serverSide() || expected == null
        || !expected.checkable() || expected.algorithm() != Checksum.Algorithm.MD5) {
      return landed;
    }
    String digest = inOrder.landed(readBack, upload, task.range(), landed.crc32c());
    return digest.isEmpty() ? landed : landed.withObjectDigest(digest);
  }

  private RangeResult result(Copying c, String receipt, String error) {
    RangeTask task = c.task;
    Progress progress = c.progress;
    progress.settle();
    Checksum expected = progress.expected() != null ? progress.expected() : c.expected;
    long payload = progress.bytes();
    long delivered = error.isEmpty() ? task.range().length() : (transfer.resumable(task) ? payload : 0);
    return RangeResult.of(task.object(), c.location).task(c.taskId)
        .part(task.partNumber(), task.partCount(), task.range().offset(), task.range().length())
        .bytes(delivered, transfer.serverSide() ? 0 : payload)
        .times(c.startedAt, System.currentTimeMillis(), progress.firstByteNanos(), System.nanoTime() - c.start)
        .attempts(c.attempts, c.throttled)
        .by(transfer.method(), executorId, host).error(error)
        .digests(progress.crc32c(), progress.checksum(), expected == null ? "" : expected.text()).upload(c.upload.id(), receipt).build();
  }
}
