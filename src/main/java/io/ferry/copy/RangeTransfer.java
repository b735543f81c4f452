package io.ferry.copy;

import io.ferry.plan.RangeTask;

/**
 * One way of moving a range (ranged GET into a file, GET streamed into an upload, a server-side copy, ...). It makes
 * one attempt; {@link RangeCopier} owns retries, timing and the result.
 */
public interface RangeTransfer {
  /** The method's name in the ranges dataset. */
  String method();

  /** True when a failed attempt can continue from {@link Progress#bytes()}; otherwise the range starts over. */
  boolean resumable();

  /** Where the range goes, for the dataset (a path, or s3://bucket/key). */
  String destination(RangeTask task) throws Exception;

  /**
   * Moves the range (or its rest, for a resumable transfer), updating {@code progress} with every byte that passes
   * through this JVM. Returns the part's ETag for a multipart part, else "".
   */
  String attempt(RangeTask task, Progress progress) throws Exception;

  /** Bytes delivered to the destination without passing through this JVM (server-side copies), after success. */
  default boolean serverSide() {
    return false;
  }
}
