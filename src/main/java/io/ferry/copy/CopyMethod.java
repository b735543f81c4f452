package io.ferry.copy;

import io.ferry.config.DestinationConfig;
import io.ferry.config.DirectoryConfig;
import io.ferry.config.SourceConfig;

/**
 * How the bytes travel, from a pure predicate over the two sides' settings. Within a method, a whole object takes one
 * request (PutObject, CopyObject) and a part of a split one its own (UploadPart, UploadPartCopy).
 */
public enum CopyMethod {
  /** Ranged reads (GET or file reads) written with positioned writes into a temp file. */
  STREAM_TO_FILE,
  /** Ranged reads streamed into PutObject (whole object) or UploadPart (a part). */
  STREAM_TO_BUCKET,
  /** CopyObject (whole object) or UploadPartCopy (a part) inside the service: no bytes through the executors. */
  SERVER_SIDE_COPY;

  public static CopyMethod choose(SourceConfig source, DestinationConfig destination) {
    // A directory destination is always written by the executors.
    if (destination.store() instanceof DirectoryConfig) return STREAM_TO_FILE;
    // Inside one service (same endpoint and identity, or server-side-copy = always), bytes need not leave it.
    if (destination.serverSideCopyFrom(source)) return SERVER_SIDE_COPY;
    // Across services, or from files, the executors carry the bytes.
    return STREAM_TO_BUCKET;
  }
}
