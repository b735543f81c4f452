package io.ferry.store;

import java.io.IOException;

/** A destination that makes hard links (a directory): {@code source.hard-links = keep}. */
public interface HardLinkTarget {
  /**
   * Makes {@code name} another name of the file the destination holds for {@code first} (a hard link), atomically,
   * once that file is there as {@code first} was listed ({@code source.hard-links = keep}); only a directory can.
   */
  @Retries.Once
  void hardLink(StoreObject first, StoreObject name) throws IOException;

}
