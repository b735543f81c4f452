package io.ferry.commit;

import io.ferry.store.StoreObject;
import java.io.Serializable;
import java.util.Objects;

/** What happened to one object: one row of the objects dataset. */
public record ObjectResult(StoreObject object, String destination, int parts, long bytes, Status status, String error)
    implements Serializable {

  public enum Status {
    /** Complete at its final name. */
    COPIED,
    /** The destination already held it unchanged (same size and modification time). */
    SKIPPED,
    /** Not copied; nothing of it is at its final name and its temp file is gone. */
    FAILED
  }

  public ObjectResult {
    Objects.requireNonNull(object, "object is null");
    Objects.requireNonNull(destination, "destination is null");
    Objects.requireNonNull(status, "status is null");
    Objects.requireNonNull(error, "error is null");
  }
}
