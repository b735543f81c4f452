package io.ferry.store;

import java.io.IOException;

/** A destination that copies objects of a source in the same service without their bytes leaving it. */
public interface InServiceCopy {
  /** Copies {@code range} of the upload's object from the source into part {@code partNumber} (1, whole: one request). */
  @Retries.Once
  String copy(Upload upload, int partNumber, ByteRange range) throws IOException;
}
