package io.ferry.store;

import io.ferry.store.checksums.Checksum;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/** Where a range's bytes come from (a bucket, a directory). Reads try once ({@link Retries.Once}): the copy retries them. */
public interface RangeReader {
  /**
   * Opens the bytes of {@code range} of {@code object}; the stream must deliver exactly {@code range.length()} bytes.
   * A range that is the whole object comes with what the source knows of its bytes ({@link #expected}).
   */
  @Retries.Once
  InputStream open(StoreObject object, ByteRange range) throws IOException;

  /**
   * The metadata to carry to a bucket destination, read from the answer of a stream {@link #open} returned, and with
   * its {@code tags} where asked (a request of their own, unless the answer tells there are none).
   */
  @Retries.Once
  ObjectMetadata metadataOf(InputStream opened, StoreObject object, boolean tags) throws IOException;

  /**
   * The metadata of an object, with a request of its own where needed (before a multipart upload is opened),
   * including the checksum the source keeps of its bytes, if any, and its {@code tags} where asked.
   */
  @Retries.Once
  ObjectMetadata metadata(StoreObject object, boolean tags) throws IOException;

  /**
   * The object's ACL as grant headers ({@link ObjectMetadata#GRANT_READ}...), a request of its own; only a bucket keeps
   * one (a job copies ACLs only from a bucket).
   */
  @Retries.Once
  default Map<String, String> grants(StoreObject object) throws IOException {
    return Map.of();
  }

  /**
   * Whether two objects are one file under two names (hard links of a directory: one device and inode, neither a
   * symbolic link followed); false where the store has no such thing.
   */
  @Retries.Once
  default boolean sameFile(StoreObject a, StoreObject b) throws IOException {
    return false;
  }

  /**
   * What the bytes of a whole object opened by {@link #open} must check against: the source's stored checksum, or
   * its ETag where that is the MD5 of the bytes; null when the source keeps neither.
   */
  default Checksum expected(InputStream opened, StoreObject object) {
    return null;
  }

  /** True when the source may keep checksums of objects, worth a request for an object copied in parts. */
  default boolean keepsChecksums() {
    return false;
  }

  /** Gives up a stream that failed part-way without draining it (a stalled body would stall the close too). */
  default void discard(InputStream in) {
    try {
      in.close();
    } catch (IOException | RuntimeException e) {
      // the stream is being abandoned; its own error is the one reported
    }
  }

  /** How the bytes are read, for the dataset: "get" or "read". */
  String verb();
}
