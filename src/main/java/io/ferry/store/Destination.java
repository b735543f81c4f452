package io.ferry.store;

import io.ferry.store.checksums.Checksum;
import java.io.IOException;
import java.util.Set;
import java.util.SortedMap;

/**
 * Where objects land. An object is written whole in one part, or opened and written in parts by any number of
 * executors, then completed (made visible at its final name, all at once) or aborted (no trace left). Every step is
 * idempotent, so Spark may run a task twice: a part written again holds the same bytes, a repeated completion of a
 * completed object succeeds.
 *
 * <p>Its writes try once ({@link Retries.Once}: the copy and the commit retry them); failures are {@link StoreFailure}s
 * classified where they happen, or plain {@link IOException}s of the network ({@code retry.Failures}).
 */
public interface Destination {
  Capabilities capabilities();

  /** Where the object lands, for the datasets: a path, or s3://bucket/key. */
  String location(StoreObject object);

  /** Why the object cannot be written here (an unsafe path, a key too long), or null when it can. */
  String rejection(StoreObject object);

  /** Opens an object to be written in parts (a multipart upload; a temp file of its full size). */
  @Retries.Once
  Upload open(StoreObject object, ObjectMetadata.Lazy metadata) throws IOException;

  /**
   * Writes bytes [{@code from}, length) of {@code range} of the upload's object, as part {@code partNumber} (1 for an
   * object written whole), reading them from {@code body}, which delivers exactly those bytes. {@code from} is 0 unless
   * the destination has {@link Capabilities#resumableWrites()}. {@code metadata} is what an object written whole
   * carries (content headers, user metadata), read after {@code body} was opened; parts had theirs at {@link #open}. Returns the part's
   * receipt for
   * {@link #complete} (an ETag), or "".
   */
  @Retries.Once
  String write(Upload upload, int partNumber, ByteRange range, long from, Body body, ObjectMetadata.Lazy metadata) throws IOException;

  /** Makes the object visible at its final name, from its parts' receipts in part order. */
  @Retries.Once
  void complete(Upload upload, SortedMap<Integer, String> receipts) throws IOException;

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
   * True for an entry of {@link #existing} that an earlier run of this job left and no ledger names (a directory's
   * temp file of an object copied whole): a rerun and {@code cleanup} remove it ({@link #removeStray}).
   */
  default boolean isStray(StoreObject existing) {
    return false;
  }

  @Retries.Once
  default void removeStray(StoreObject stray) throws IOException {}

  /**
   * True for an entry of {@link #existing} that is a copy's staging of any job (a directory's temp file or marker),
   * never an object: no job deletes another's temp files as extraneous, and none takes one for an unchanged object.
   */
  default boolean isStaging(StoreObject existing) {
    return false;
  }

  /**
   * The key, as {@link #existing} lists it, where an upload's bytes wait for completion, when they are listed there (a
   * directory's temp file); null otherwise. Such an entry of an upload the ledger names is no stray.
   */
  default String stagedAt(Upload upload) {
    return null;
  }

  /**
   * True when two keys that differ only in case name one object here (a case-insensitive filesystem: SMB, APFS, NTFS,
   * ext4 with casefold), found by a probe. Asked once, on the driver.
   */
  @Retries.Once
  default boolean foldsCase() throws java.io.IOException {
    return false;
  }

  /**
   * Aborts the other uploads of {@code kept}'s object that were opened within {@code withinMillis} before it (by the
   * destination's own clock): what an opening retried after its answers were lost left open. Returns how many.
   */
  @Retries.Once
  default int abortLostOpenings(Upload kept, long withinMillis) throws java.io.IOException {
    return 0;
  }

  /** Every upload open at the destination under its prefix (a bucket's multipart uploads), keyed relative to it. */
  @Retries.Once
  default java.util.List<Upload> openUploads() throws java.io.IOException {
    return java.util.List.of();
  }

  /** After a batch of completions (one task's): what they deferred, such as the directories' fsyncs. */
  @Retries.Once
  default void flush() throws IOException {}

  /**
   * Deletes an object listed by {@link #existing} (delete-extraneous: the source no longer has it). Returns false,
   * deleting nothing, when it is not there as listed: gone already, or (where the destination can tell) changed since.
   */
  @Retries.Once
  boolean delete(StoreObject existing) throws IOException;

  /**
   * Moves an object listed by {@link #existing} aside instead of deleting it (a cut-over pass with
   * {@code destination.delete-to}): to the same relative key under {@code to}, a place outside this destination of
   * its own kind (a directory; a key prefix of the same bucket). Returns false, moving nothing, when it is not there
   * as listed, as {@link #delete}.
   */
  @Retries.Once
  boolean moveAside(StoreObject existing, String to) throws IOException;

  /** What is already here, keyed as the source's relative keys: for skipping unchanged objects. */
  Lister existing();

  /** True when {@code existing} (listed here) already holds {@code source} unchanged, so it need not be copied. */
  boolean unchanged(StoreObject source, StoreObject existing);
}
