package io.ferry.store;

import java.io.IOException;

/** What a cut-over pass does to an object the source no longer holds: delete it, or move it aside. */
public interface CutOverTarget {
  /**
   * Deletes an object listed by {@link ExistingObjects#existing} (delete-extraneous: the source no longer has it). Returns false,
   * deleting nothing, when it is not there as listed: gone already, or (where the destination can tell) changed since.
   */
  @Retries.Once
  boolean delete(StoreObject existing) throws IOException;

  /**
   * Moves an object listed by {@link ExistingObjects#existing} aside instead of deleting it (a cut-over pass with
   * {@code destination.delete-to}): to the same relative key under {@code to}, a place outside this destination of
   * its own kind (a directory; a key prefix of the same bucket). Returns false, moving nothing, when it is not there
   * as listed, as {@link #delete}.
   */
  @Retries.Once
  boolean moveAside(StoreObject existing, String to) throws IOException;

}
