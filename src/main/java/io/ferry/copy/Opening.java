package io.ferry.copy;

import io.ferry.store.Destination;
import io.ferry.store.Failures;
import io.ferry.store.RangeReader;
import io.ferry.store.Retrier;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import java.io.Serializable;
import java.util.Objects;

/**
 * OPEN: an object written in parts is opened at the destination before any of its parts is copied (a multipart
 * upload, created with the source's metadata; a temp file at its full size). Free of Spark.
 */
public final class Opening {
  /** An object opened, or why it could not be. */
  public record Opened(StoreObject object, Upload upload, String error) implements Serializable {
    public Opened {
      Objects.requireNonNull(object, "object is null");
      Objects.requireNonNull(error, "error is null");
      if ((upload == null) == error.isEmpty()) throw new IllegalArgumentException("an upload or an error, not both");
    }

    public boolean ok() {
      return upload != null;
    }
  }

  private final RangeReader source;
  private final Destination destination;
  private final Retrier retrier;

  public Opening(RangeReader source, Destination destination, Retrier retrier) {
    this.source = source;
    this.destination = destination;
    this.retrier = retrier;
  }

  public Opened open(StoreObject object) {
    try {
      return new Opened(object, retrier.call(() -> destination.open(object, () -> source.metadata(object))), "");
    } catch (Exception e) {
      return new Opened(object, null, Failures.describe(e));
    }
  }
}
