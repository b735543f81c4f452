package io.ferry.store;

import io.ferry.store.checksums.Checksum;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;

/**
 * The writing of objects, what the copy and the commit use of a {@link Destination}. An object is written whole in
 * one part, or opened and written in parts by any number of executors, then completed (made visible at its final
 * name, all at once) or aborted (no trace left). Every step is idempotent, so Spark may run a task twice: a part
 * written again holds the same bytes, a repeated completion of a completed object succeeds.
 *
 * <p>Its writes try once ({@link Retries.Once}: the copy and the commit retry them); failures are {@link StoreFailure}s
 * classified where they happen, or plain {@link IOException}s of the network ({@code retry.Failures}).
 */
public interface Uploads {
  Capabilities capabilities();

  /** Whether the objects written here carry the source's tags: the metadata handed to a write must include them. */
  default boolean keepsTags() {
    return false;
  }

  /** Whether the objects written here carry the source's ACL: the metadata handed to a write must include its grants. */
  default boolean keepsAcl() {
    return false;
  }

  /** Where the object lands, for the datasets: a path, or s3://bucket/key. */
  String location(StoreObject object);

  /** Opens an object to be written in parts (a multipart upload; a temp file of its full size). */
  @Retries.Once
  Upload open(StoreObject object, ObjectMetadata.Lazy metadata) throws IOException;

  /**
   * Writes bytes [{@code from}, length) of {@code range} of the upload's object, as part {@code partNumber} (1 for an
   * object written whole), reading them from {@code body}, which delivers exactly those bytes. {@code from} is 0 unless
   * the destination has {@link Capabilities#resumableWrites()}. {@code metadata} is what an object written whole
   * carries (content headers, user metadata), read after {@code body} was opened; parts had theirs at {@link #open}. Returns
   * the part's receipt for {@link #complete} (an ETag; a file's mode and owner), or "".
   */
  @Retries.Once
  String write(Upload upload, int partNumber, ByteRange range, long from, Body body, ObjectMetadata.Lazy metadata) throws IOException;

  /**
   * Makes the object visible at its final name, from its parts' receipts in part order. Returns what the object did not
   * carry that its source told of (for the objects dataset), "" when it carried all.
   */
  @Retries.Once
  String complete(Upload upload, SortedMap<Integer, String> receipts) throws IOException;

  /** Removes every trace of an object that will not be completed; never touches its final name. */
  @Retries.Once
  void abort(Upload upload) throws IOException;

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

  /** After a batch of completions (one task's): what they deferred, such as the directories' fsyncs. */
  @Retries.Once
  default void flush() throws IOException {}
}
