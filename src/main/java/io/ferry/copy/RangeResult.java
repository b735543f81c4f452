package io.ferry.copy;

import io.ferry.store.StoreObject;
import java.io.Serializable;
import java.util.Objects;

/**
 * What happened to one range: one row of the ranges dataset.
 *
 * @param bytes bytes of the range now at the destination (the length when OK)
 * @param payloadBytes bytes that passed through the executor (0 for a server-side copy)
 * @param firstByteNanos from sending the (last) request to its first byte, -1 when no byte passed through
 * @param attempts requests made, 1 when the first one succeeded
 * @param crc32c CRC32C of the bytes that passed through, 8 hex digits
 * @param checksum "algorithm:value" of those bytes in the algorithm of the source's checksum, "" when it keeps none
 * @param expected "algorithm:value" of the source's checksum of the whole object, "" when there is none to check
 * @param uploadId the multipart upload ("" for a whole object or a file)
 * @param etag the part's (or whole object's) ETag at a bucket destination, "" for a file
 */
public record RangeResult(
    StoreObject object,
    String destination,
    long taskId,
    int partNumber,
    int partCount,
    long offset,
    long length,
    long bytes,
    long payloadBytes,
    long startedAtMillis,
    long finishedAtMillis,
    long firstByteNanos,
    long durationNanos,
    int attempts,
    String method,
    String executorId,
    String host,
    Status status,
    String error,
    String crc32c,
    String checksum,
    String expected,
    String uploadId,
    String etag)
    implements Serializable {

  public enum Status { OK, FAILED }

  public RangeResult {
    Objects.requireNonNull(object, "object is null");
    Objects.requireNonNull(destination, "destination is null");
    Objects.requireNonNull(method, "method is null");
    Objects.requireNonNull(executorId, "executorId is null");
    Objects.requireNonNull(host, "host is null");
    Objects.requireNonNull(status, "status is null");
    Objects.requireNonNull(error, "error is null");
    Objects.requireNonNull(crc32c, "crc32c is null");
    Objects.requireNonNull(checksum, "checksum is null");
    Objects.requireNonNull(expected, "expected is null");
    Objects.requireNonNull(uploadId, "uploadId is null");
    Objects.requireNonNull(etag, "etag is null");
  }

  /** Megabytes (10^6 bytes) per second delivered over the range's duration; 0 for an empty range. */
  public double megabytesPerSecond() {
    return durationNanos <= 0 || bytes == 0 ? 0.0 : bytes / 1e6 / (durationNanos / 1e9);
  }
}
