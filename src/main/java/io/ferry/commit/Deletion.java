package io.ferry.commit;

import io.ferry.store.StoreObject;
import java.io.Serializable;
import java.util.Objects;

/**
 * One object of the destination a cut-over pass deleted, moved aside or kept: one row of the deletions dataset.
 *
 * @param location where the object was (a path, or s3://bucket/key)
 * @param detail why it was kept or failed; where it was moved to
 */
public record Deletion(StoreObject object, String location, Status status, String detail) implements Serializable {
  public enum Status {
    /** In the pass's plan, written before anything is deleted. */
    PLANNED,
    DELETED,
    /** Moved to {@code destination.delete-to}. */
    MOVED,
    /** The source holds it after all (looked up right before the delete): not deleted. */
    KEPT,
    /** The delete (or move) failed; the object is still there. */
    FAILED
  }

  public Deletion {
    Objects.requireNonNull(object, "object is null");
    Objects.requireNonNull(location, "location is null");
    Objects.requireNonNull(status, "status is null");
    Objects.requireNonNull(detail, "detail is null");
  }
}
