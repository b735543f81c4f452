package io.ferry.store;

import java.util.Optional;

/**
 * Where objects land: the {@link Uploads} the executors write through, the {@link ExistingObjects} the plan and cleanup
 * see, and the {@link CutOverTarget} of a cut-over pass; and what it can do besides, found once: versioned writes,
 * hard links.
 */
public interface Destination extends Uploads, ExistingObjects, CutOverTarget {
  /** Its versioned writes, where it can keep versions (whether it keeps them now, it says). */
  default Optional<VersionedWrites> versions() {
    return Optional.empty();
  }

  /** Its hard links, where it makes them. */
  default Optional<HardLinkTarget> hardLinks() {
    return Optional.empty();
  }
}
