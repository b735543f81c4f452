package io.ferry.store;

import io.ferry.store.checksums.Checksum;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;

/**
 * The bytes an upload holds before its completion: what the commit reads back and checks, and what a rerun finds of
 * an earlier run's openings. Where a destination keeps nothing of the kind to tell, it says so (null, false, none).
 */
public interface StagedBytes {
  /**
   * Which of the parts an earlier run recorded for {@code upload} (part number → receipt) the destination still holds
   * as recorded: a rerun copies only the others. Null when the upload itself is gone (completed, aborted, expired).
   */
  @Retries.Once
  Set<Integer> partsStillThere(Upload upload, SortedMap<Integer, String> recorded) throws IOException;

  /**
   * The checksum in {@code algorithm} of the bytes an object written in parts (or whole) holds before its completion,
   * read back from the destination; null where staged bytes cannot be read back (a multipart upload).
   */
  @Retries.Once
  default String readBack(Upload upload, Checksum.Algorithm algorithm) throws IOException {
    return null;
  }

  /**
   * Feeds bytes {@code range} of what an upload holds before its completion to {@code digests}, read back from the
   * destination; false where staged bytes cannot be read back.
   */
  @Retries.Once
  default boolean readBack(Upload upload, ByteRange range, Checksum.Digest... digests) throws IOException {
    return false;
  }

  /**
   * The state of the bytes an upload holds before its completion (size, time of the last write, file), which any write
   * changes; null where the destination keeps none to tell.
   */
  @Retries.Once
  default String staged(Upload upload) throws IOException {
    return null;
  }

  /**
   * Aborts the other uploads of {@code kept}'s object that were opened within {@code withinMillis} before it (by the
   * destination's own clock): what an opening retried after its answers were lost left open. Returns how many.
   */
  @Retries.Once
  default int abortLostOpenings(Upload kept, long withinMillis) throws IOException {
    return 0;
  }

  /** Every upload open at the destination under its prefix (a bucket's multipart uploads), keyed relative to it. */
  @Retries.Once
  default List<Upload> openUploads() throws IOException {
    return List.of();
  }

  /**
   * The key, as the destination's listing lists it, where an upload's bytes wait for completion, when they are listed
   * there (a directory's temp file); null otherwise. Such an entry of an upload the ledger names is no stray.
   */
  default String stagedAt(Upload upload) {
    return null;
  }
}
