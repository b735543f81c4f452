package io.ferry.config;

import java.io.Serializable;
import java.util.Objects;

/**
 * Where objects land, and whether a bucket-to-bucket copy may stay inside the service.
 *
 * @param deleteExtraneous after a run without failures, delete what the destination holds that the source no longer
 *     has (among the objects the source's selection would take): the cut-over pass of a sync; off by default
 */
public record DestinationConfig(StoreConfig store, ServerSideCopy serverSideCopy, boolean deleteExtraneous) implements Serializable {

  /** When a bucket-to-bucket copy may stay inside the service. */
  public enum ServerSideCopy { AUTO, ALWAYS, NEVER }

  public DestinationConfig {
    Objects.requireNonNull(store, "store is null");
    Objects.requireNonNull(serverSideCopy, "serverSideCopy is null");
  }

  public DestinationConfig(StoreConfig store) {
    this(store, ServerSideCopy.AUTO, false);
  }

  public DestinationConfig(StoreConfig store, ServerSideCopy serverSideCopy) {
    this(store, serverSideCopy, false);
  }

  public String describe() {
    return store.describe();
  }

  /** True when objects of {@code source} are copied inside the service rather than streamed through executors. */
  public boolean serverSideCopyFrom(SourceConfig source) {
    if (!(store instanceof BucketConfig to) || !(source.store() instanceof BucketConfig from)) return false;
    return switch (serverSideCopy) {
      case ALWAYS -> true;
      case NEVER -> false;
      case AUTO -> to.endpoint().sameServiceAs(from.endpoint());
    };
  }
}
