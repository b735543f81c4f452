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
 * @param throttled of the attempts, those the store answered by asking to slow down (503 SlowDown, 429)
 * @param crc32c CRC32C of the bytes that passed through, 8 hex digits
 * @param checksum "algorithm:value" of those bytes in the algorithm of the source's checksum, "" when it keeps none
 * @param expected "algorithm:value" of the source's checksum of the whole object, "" when there is none to check
 * @param uploadId the multipart upload ("" for a whole object or a file)
 * @param etag the part's (or whole object's) ETag at a bucket destination, "" for a file
 * @param streams the streams its executor allowed at once, over all its tasks, when the range started: tuned
 *     ({@code copy.streams-per-task = auto}), or streams-per-task × the executor's slots; 0 for a part copied again at
 *     its commit
 * @param objectDigest the whole object's digest read back in order as its parts landed, where this range's landing
 *     completed it ({@link InOrderDigests#text}); "" otherwise
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
    int throttled,
    String method,
    String executorId,
    String host,
    Status status,
    String error,
    String crc32c,
    String checksum,
    String expected,
    String uploadId,
    String etag,
    int streams,
    String objectDigest)
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
    Objects.requireNonNull(objectDigest, "objectDigest is null");
  }

  /** A result built by name: the object's range and where it goes, then what happened ({@link Builder}). */
  public static Builder of(StoreObject object, String destination) {
    return new Builder(object, destination);
  }

  /** Unset: task -1, part 1 of 1 (the whole object), nothing moved, no time, no attempt, OK, no digests, no upload. */
  public static final class Builder {
    private final StoreObject object;
    private final String destination;
    private long taskId = -1;
    private int partNumber = 1;
    private int partCount = 1;
    private long offset;
    private long length;
    private long bytes;
    private long payloadBytes;
    private long startedAtMillis;
    private long finishedAtMillis;
    private long firstByteNanos = -1;
    private long durationNanos;
    private int attempts;
    private int throttled;
    private String method = "";
    private String executorId = "";
    private String host = "";
    private Status status = Status.OK;
    private String error = "";
    private String crc32c = "";
    private String checksum = "";
    private String expected = "";
    private String uploadId = "";
    private String etag = "";
    private int streams;
    private String objectDigest = "";

    private Builder(StoreObject object, String destination) {
      this.object = object;
      this.destination = destination;
      this.length = object.size();
    }

    public Builder task(long id) {
      taskId = id;
      return this;
    }

    public Builder part(int number, int count, long offset, long length) {
      partNumber = number;
      partCount = count;
      this.offset = offset;
      this.length = length;
      return this;
    }

    /** @param delivered bytes now at the destination; @param payload bytes that passed through the executor */
    public Builder bytes(long delivered, long payload) {
      bytes = delivered;
      payloadBytes = payload;
      return this;
    }

    public Builder times(long startedAt, long finishedAt, long firstByte, long duration) {
      startedAtMillis = startedAt;
      finishedAtMillis = finishedAt;
      firstByteNanos = firstByte;
      durationNanos = duration;
      return this;
    }

    public Builder attempts(int n) {
      attempts = n;
      return this;
    }

    /** @param of how many the store asked to slow down */
    public Builder attempts(int n, int of) {
      attempts = n;
      throttled = of;
      return this;
    }

    public Builder by(String method, String executorId, String host) {
      this.method = method;
      this.executorId = executorId;
      this.host = host;
      return this;
    }

    /** FAILED with {@code error}, or OK where it is "". */
    public Builder error(String error) {
      this.error = error;
      status = error.isEmpty() ? Status.OK : Status.FAILED;
      return this;
    }

    public Builder digests(String crc32c, String checksum, String expected) {
      this.crc32c = crc32c;
      this.checksum = checksum;
      this.expected = expected;
      return this;
    }

    public Builder upload(String uploadId, String etag) {
      this.uploadId = uploadId;
      this.etag = etag;
      return this;
    }

    public Builder streams(int allowed) {
      streams = allowed;
      return this;
    }

    public Builder objectDigest(String digest) {
      objectDigest = digest;
      return this;
    }

    public RangeResult build() {
      return new RangeResult(object, destination, taskId, partNumber, partCount, offset, length, bytes, payloadBytes, startedAtMillis,
          finishedAtMillis, firstByteNanos, durationNanos, attempts, throttled, method, executorId, host, status, error, crc32c, checksum,
          expected, uploadId, etag, streams, objectDigest);
    }
  }

  /** This result, carrying the whole object's digest. */
  public RangeResult withObjectDigest(String digest) {
    return new RangeResult(object, destination, taskId, partNumber, partCount, offset, length, bytes, payloadBytes, startedAtMillis,
        finishedAtMillis, firstByteNanos, durationNanos, attempts, throttled, method, executorId, host, status, error, crc32c, checksum,
          expected, uploadId, etag, streams, digest);
  }

  /** This result, with the streams its executor allowed when it started. */
  public RangeResult withStreams(int allowed) {
    return new RangeResult(object, destination, taskId, partNumber, partCount, offset, length, bytes, payloadBytes, startedAtMillis,
        finishedAtMillis, firstByteNanos, durationNanos, attempts, throttled, method, executorId, host, status, error, crc32c, checksum,
          expected, uploadId, etag, allowed, objectDigest);
  }

  /** Megabytes (10^6 bytes) per second delivered over the range's duration; 0 for an empty range. */
  public double megabytesPerSecond() {
    return durationNanos <= 0 || bytes == 0 ? 0.0 : bytes / 1e6 / (durationNanos / 1e9);
  }
}
