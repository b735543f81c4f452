package io.ferry.commit;

import io.ferry.store.StoreObject;
import java.io.Serializable;
import java.util.Objects;

/**
 * What happened to one object: one row of the objects dataset.
 *
 * @param verified how its copy was checked before it was committed: against the source's stored checksum
 *     ("source-crc64nvme", "source-crc32c", ...) or its MD5 ETag ("source-md5-etag"), by reading the destination's
 *     bytes back ("read-back-crc32c"), copied inside the service ("server-side-copy"), or "none"; "" for an object not
 *     committed
 * @param checksum "algorithm:value" of the committed object's bytes as checked ("" when none)
 * @param notCarried what of the source's told attributes the committed object does not carry, and why ("" when it carries
 *     all): an owner a directory destination may not set
 */
public record ObjectResult(StoreObject object, String destination, int parts, long bytes, Status status, String error,
    String verified, String checksum, String notCarried) implements Serializable {

  public enum Status {
    /** Complete at its final name. */
    COPIED,
    /** The destination already held it unchanged (same size and modification time). */
    SKIPPED,
    /** Not copied; nothing of it is at its final name and its temp file is gone. */
    FAILED,
    /** Named by the manifest, but the source no longer holds it: reported, not copied, not a failure. */
    MISSING,
    /**
     * Held by the source, and left by the job's settings (a symbolic link not followed, an archived object skipped):
     * reported, not a failure.
     */
    NOT_COPIED,
    /**
     * Archived at the source, with a restore requested (by this run or an earlier one) that has not finished: not copied
     * yet, not a failure; a rerun copies it once it is restored.
     */
    RESTORING
  }

  /** An object that was not committed. */
  public static ObjectResult failed(StoreObject object, String destination, int parts, long bytes, String error) {
    return new ObjectResult(object, destination, parts, bytes, Status.FAILED, error, "", "", "");
  }

  /**
   * A row of an object whose bytes this run did not write: restoring, missing, not copied (with why), or a name made
   * without copying bytes (a hard link, a delete marker: {@code verified} says which).
   */
  public static ObjectResult row(StoreObject object, String destination, Status status, String why, String verified) {
    return new ObjectResult(object, destination, 0, 0, status, why, verified, "", "");
  }

  public ObjectResult {
    Objects.requireNonNull(object, "object is null");
    Objects.requireNonNull(destination, "destination is null");
    Objects.requireNonNull(status, "status is null");
    Objects.requireNonNull(error, "error is null");
    Objects.requireNonNull(verified, "verified is null");
    Objects.requireNonNull(checksum, "checksum is null");
    Objects.requireNonNull(notCarried, "notCarried is null");
  }
}
