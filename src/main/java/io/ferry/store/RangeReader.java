package io.ferry.store;

import java.io.IOException;
import java.io.InputStream;

/** Where a range's bytes come from (a bucket, a directory). Implementations do not retry: {@link RangeCopier} does. */
public interface RangeReader {
  /** Opens the bytes of {@code range} of {@code object}; the stream must deliver exactly {@code range.length()} bytes. */
  InputStream open(StoreObject object, ByteRange range) throws IOException;

  /** The metadata to carry to a bucket destination, read from a stream {@link #open} returned (no extra request). */
  ObjectMetadata metadataOf(InputStream opened, StoreObject object);

  /** The metadata of an object, with a request of its own where needed (before a multipart upload is opened). */
  ObjectMetadata metadata(StoreObject object) throws IOException;

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
