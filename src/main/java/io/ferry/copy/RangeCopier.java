package io.ferry.copy;

import io.ferry.destination.FileDestination;
import io.ferry.destination.UnsafeKeyException;
import io.ferry.plan.ByteRange;
import io.ferry.plan.RangeTask;
import io.ferry.source.S3Errors;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.zip.CRC32C;

/**
 * Copies one range from a {@link RangeSource} into a {@link FileDestination}, with the job's one retry layer: a
 * retryable failure (5xx, SlowDown, reset, stall, short body) waits with jittered backoff and resumes from the last
 * byte written; a fatal one (403, 404, 412, a local I/O error) ends the range at once. Never throws for a failed
 * range: the failure is a {@link RangeResult} with status FAILED, so the report holds every range. Free of Spark.
 */
public final class RangeCopier {
  private final RangeSource source;
  private final FileDestination destination;
  private final int retries;
  private final Backoff backoff;
  private final int bufferSize;
  private final String executorId;
  private final String host;

  public RangeCopier(RangeSource source, FileDestination destination, int retries, Backoff backoff, int bufferSize,
      String executorId, String host) {
    this.source = source;
    this.destination = destination;
    this.retries = retries;
    this.backoff = backoff;
    this.bufferSize = bufferSize;
    this.executorId = executorId;
    this.host = host;
  }

  public RangeResult copy(int taskId, RangeTask task) {
    long startedAt = System.currentTimeMillis();
    long start = System.nanoTime();
    ByteRange range = task.range();
    CRC32C crc = new CRC32C();
    byte[] buffer = new byte[(int) Math.min(bufferSize, Math.max(1, range.length()))];
    long done = 0;
    long firstByte = -1;
    int attempts = 0;
    String error = "";
    String destinationPath;
    try {
      destinationPath = destination.finalPath(task.object()).toString();
    } catch (UnsafeKeyException e) {
      return result(taskId, task, "", startedAt, start, 0, -1, 0, "unsafe key: " + e.getMessage(), crc);
    }
    try (FileDestination.RangeSink sink = destination.open(task)) {
      while (done < range.length()) {
        attempts++;
        long requestStart = System.nanoTime();
        InputStream in = null;
        try {
          in = source.open(task.object(), range.skip(done));
          long remaining = range.length() - done;
          while (remaining > 0) {
            if (Thread.interrupted()) throw new InterruptedIOException("the task was cancelled");
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
            if (n < 0) {
              throw new IOException("the response ended " + remaining + " bytes early");
            }
            if (firstByte < 0 && n > 0) firstByte = System.nanoTime() - requestStart;
            sink.write(ByteBuffer.wrap(buffer, 0, n), range.offset() + done);
            crc.update(buffer, 0, n);
            done += n;
            remaining -= n;
          }
          in.close();
        } catch (Exception e) {
          if (in != null) source.discard(in);
          boolean local = e instanceof java.nio.file.FileSystemException || isLocalWriteFailure(e);
          if (local || !S3Errors.isRetryable(e) || attempts > retries) {
            error = (local ? "write failed: " : attempts > retries && S3Errors.isRetryable(e)
                ? "gave up after " + attempts + " attempts: " : "") + S3Errors.describe(e);
            break;
          }
          sleep(backoff.delayMillis(attempts - 1));
        }
      }
    } catch (IOException | UnsafeKeyException e) {
      error = "cannot open the temp file: " + S3Errors.describe(e);
    }
    return result(taskId, task, destinationPath, startedAt, start, done, firstByte, attempts, error, crc);
  }

  private RangeResult result(int taskId, RangeTask task, String destinationPath, long startedAt, long start, long bytes,
      long firstByte, int attempts, String error, CRC32C crc) {
    boolean ok = error.isEmpty() && bytes == task.range().length();
    return new RangeResult(task.object(), destinationPath, taskId, task.partNumber(), task.partCount(),
        task.range().offset(), task.range().length(), bytes, startedAt, System.currentTimeMillis(), firstByte,
        System.nanoTime() - start, attempts, source.method(), executorId, host,
        ok ? RangeResult.Status.OK : RangeResult.Status.FAILED, error,
        HexFormat.of().toHexDigits((int) crc.getValue()));
  }

  /** A failed positioned write (disk full, I/O error) surfaces as a plain IOException from the sink. */
  private static boolean isLocalWriteFailure(Exception e) {
    String message = e.getMessage();
    return e instanceof IOException && message != null
        && (message.contains("No space left") || message.contains("Read-only file system") || message.contains("Disk quota"));
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
