package io.ferry.store;

import io.ferry.config.StoreConfig;
import java.io.IOException;
import java.util.Optional;

/** One configured store (a bucket and prefix, a directory) as the pipeline uses it. */
public interface Store {
  /** Its objects under the prefix (or directory). */
  Lister lister();

  /** Reads byte ranges of its objects. */
  RangeReader reader();

  /** Writes objects into it. */
  Destination destination();

  /** Restores its archived objects; empty where the store archives none (a directory). */
  default Optional<Restorer> restorer() {
    return Optional.empty();
  }

  /** Fails with the store's own error if it cannot be reached with the job's settings (a bucket's HEAD). */
  @Retries.Retried
  default void check() throws IOException {}

  /**
   * Copies objects of {@code source} into this store without their bytes leaving the service, where both are in one
   * service ({@code CopyMethod} decides); empty where the store cannot.
   */
  default Optional<InServiceCopy> copyingFrom(StoreConfig source) {
    return Optional.empty();
  }
}
