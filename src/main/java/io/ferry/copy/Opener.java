package io.ferry.copy;

import io.ferry.store.checksums.Checksum;
import io.ferry.store.Uploads;
import io.ferry.store.retry.Failures;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.RangeReader;
import io.ferry.store.retry.Retrier;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import java.io.Serializable;
import java.util.Objects;

/**
 * OPEN: an object written in parts is opened at the destination before any of its parts is copied (a multipart
 * upload, created with the source's metadata), and the source's checksum of it is read, for its parts to keep digests
 * in that algorithm and its commit to check them. Free of Spark.
 */
public final class Opener {
  /** An object opened, with the source's checksum of it (null if none), or why it could not be opened. */
  public record Outcome(StoreObject object, Upload upload, Checksum expected, String error) implements Serializable {
    public Outcome {
      Objects.requireNonNull(object, "object is null");
      Objects.requireNonNull(error, "error is null");
      if ((upload == null) == error.isEmpty()) throw new IllegalArgumentException("an upload or an error, not both");
    }

    public boolean ok() {
      return upload != null;
    }
  }

  private final RangeReader source;
  private final Uploads destination;
  private final Retrier retrier;

  public Opener(RangeReader source, Uploads destination, Retrier retrier) {
    this.source = source;
    this.destination = destination;
    this.retrier = retrier;
  }

  /**
   * Opens the object; an opening retried (its answer lost, or an error after the service acted) may have left
   * uploads of its own open, which are aborted once one opening succeeded.
   */
  public Outcome open(StoreObject object) {
    long started = System.nanoTime();
    int[] attempts = {0};
    Outcome opened;
    try {
      opened = retrier.call(() -> {
        attempts[0]++;
        ObjectMetadata[] read = {null}; // one request for both, at most
        ObjectMetadata.Lazy metadata = () -> read[0] != null ? read[0] : (read[0] = Carried.read(source, destination, object, null));
        Upload upload = destination.open(object, metadata);
        return new Outcome(object, upload, source.keepsChecksums() ? metadata.get().checksum() : null, "");
      });
    } catch (Exception e) {
      return new Outcome(object, null, null, Failures.describe(e));
    }
    if (attempts[0] > 1) {
      long within = (System.nanoTime() - started) / 1_000_000;
      try {
        retrier.call(() -> destination.abortLostOpenings(opened.upload(), within));
      } catch (Exception e) {
        // left to a lifecycle rule or 'cleanup', which lists the uploads at the keys this job writes
      }
    }
    return opened;
  }
}
