package io.ferry.copy;

import io.ferry.plan.RangeTask;
import io.ferry.store.Upload;
import java.io.IOException;

/**
 * One way of moving a range (read and written through this JVM, or copied inside the service). It makes one attempt;
 * {@link RangeCopier} owns retries, timing and the result.
 */
public interface RangeTransfer {
  /** The method's name in the ranges dataset. */
  String method();

  /** True when a failed attempt at {@code task} can continue from {@link Progress#bytes()}; otherwise it starts over. */
  boolean resumable(RangeTask task);

  /** True when the bytes reach the destination without passing through this JVM. */
  default boolean serverSide() {
    return false;
  }

  /** Where the range goes, for the dataset (a path, or s3://bucket/key). */
  String location(RangeTask task);

  /**
   * Moves the range (or its rest, for a resumable transfer) into {@code upload}, updating {@code progress} with every
   * byte that passes through this JVM. Returns the part's receipt for the completion (an ETag), or "".
   */
  String attempt(RangeTask task, Upload upload, Progress progress) throws IOException;
}
