package io.ferry.store;

import java.io.IOException;
import java.util.SortedMap;

/**
 * The writing of objects: what the copy and the commit write through. An object is written whole in one part, or
 * opened and written in parts by any number of executors, then completed (made visible at its final name, all at once)
 * or aborted (no trace left). Every step is idempotent, so Spark may run a task twice: a part written again holds the
 * same bytes, a repeated completion of a completed object succeeds.
 *
 * <p>Its writes try once ({@link Retries.Once}: the copy and the commit retry them); failures are {@link StoreFailure}s
 * classified where they happen, or plain {@link IOException}s of the network ({@code retry.Failures}).
 */
public interface Writing {
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

  /** After a batch of completions (one task's): what they deferred, such as the directories' fsyncs. */
  @Retries.Once
  default void flush() throws IOException {}
}
