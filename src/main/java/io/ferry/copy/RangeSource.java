package io.ferry.copy;

import io.ferry.plan.ByteRange;
import io.ferry.plan.SourceObject;
import java.io.IOException;
import java.io.InputStream;

/** Where a range's bytes come from. Implementations do not retry: {@link RangeCopier} does. */
public interface RangeSource {
  /** Opens the bytes of {@code range} of {@code object}; the stream must deliver exactly {@code range.length()} bytes. */
  InputStream open(SourceObject object, ByteRange range) throws IOException;

  /** Gives up a stream that failed part-way without draining it (a stalled body would stall the close too). */
  default void discard(InputStream in) {
    try {
      in.close();
    } catch (IOException | RuntimeException e) {
      // the stream is being abandoned; its own error is the one reported
    }
  }

  /** How the bytes travel, for the dataset (e.g. "get"). */
  String method();
}
