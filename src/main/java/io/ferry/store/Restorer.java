package io.ferry.store;

import java.io.IOException;

/** Asks a store to restore archived objects, so that their bytes can be read ({@link Archive}). */
public interface Restorer {
  /** What the store said of a restore request. */
  enum Outcome {
    /** Accepted: the restore starts now (the request is billed). */
    REQUESTED,
    /** A restore of the object is under way already. */
    UNDER_WAY,
    /** The object can be read now (restored already, or no longer archived): a rerun copies it. */
    READABLE
  }

  /**
   * Sends a restore request for {@code object}.
   *
   * @param tier the retrieval tier as S3 names it (Expedited, Standard, Bulk)
   * @param days how long the restored copy stays readable (left out where the object's class takes none)
   */
  @Retries.Retried
  Outcome restore(StoreObject object, String tier, int days) throws IOException;

  /**
   * Whether the object's bytes can be read now, by reading its first byte: for a store whose HEAD does not tell of
   * restores, once one was requested.
   */
  @Retries.Retried
  boolean readable(StoreObject object) throws IOException;
}
