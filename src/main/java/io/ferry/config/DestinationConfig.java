package io.ferry.config;

import java.io.Serializable;
import java.util.Objects;

/**
 * Where objects land, and whether a bucket-to-bucket copy may stay inside the service.
 *
 * @param cutOver after a run that copied everything it selected, delete (or move aside) what the destination holds in
 *     the job's selection that the source no longer has: the cut-over pass of a sync; off by default
 */
public record DestinationConfig(StoreConfig store, ServerSideCopy serverSideCopy, CutOver cutOver) implements Serializable {

  /** The same destination at {@code to} (a directory settled on how its files are written, say). */
  public DestinationConfig withStore(StoreConfig to) {
    return new DestinationConfig(to, serverSideCopy, cutOver);
  }

  /** When a bucket-to-bucket copy may stay inside the service. */
  public enum ServerSideCopy { AUTO, ALWAYS, NEVER }

  public DestinationConfig {
    Objects.requireNonNull(store, "store is null");
    Objects.requireNonNull(serverSideCopy, "serverSideCopy is null");
    Objects.requireNonNull(cutOver, "cutOver is null");
  }

  public DestinationConfig(StoreConfig store) {
    this(store, ServerSideCopy.AUTO, CutOver.OFF);
  }

  public DestinationConfig(StoreConfig store, ServerSideCopy serverSideCopy) {
    this(store, serverSideCopy, CutOver.OFF);
  }

  public boolean deleteExtraneous() {
    return cutOver.enabled();
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
