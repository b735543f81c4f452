package io.ferry.store;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Lists the objects of a store under its prefix (or directory), each keyed also relative to it, one {@link Shard} at a
 * time so that executors list the shards in parallel. Objects are handed on as they arrive, so no listing is held whole
 * beyond what the consumer keeps.
 */
public interface Lister {
  /**
   * Shards that together cover every object under {@code prefixes} (relative to the store's prefix or directory, as
   * the job's selection names them: each usually a folder ending in '/'; empty for everything), each object once:
   * about {@code target} of them where the key space allows, found with a few requests.
   */
  @Retries.Retried
  List<Shard> shards(List<String> prefixes, int target) throws IOException;

  /** Lists one shard. */
  @Retries.Retried
  ListCounts list(Shard shard, Consumer<StoreObject> consumer) throws IOException;

  /** Lists everything, shard by shard (one shard where the store allows). */
  @Retries.Retried
  default ListCounts list(Consumer<StoreObject> consumer) throws IOException {
    ListCounts total = ListCounts.NONE;
    for (Shard shard : shards(List.of(), 1)) total = total.plus(list(shard, consumer));
    return total;
  }

  /** One object by its full key, or null when the store does not hold it (a manifest's entry is checked so). */
  @Retries.Retried
  default StoreObject stat(String key) throws IOException {
    throw new UnsupportedOperationException("this store is listed, not asked for single objects");
  }

  /**
   * One object by its key relative to the store's prefix (or directory), or null when the store does not hold it:
   * what the cut-over pass asks the source right before it deletes the destination's copy.
   */
  @Retries.Retried
  StoreObject find(String relativeKey) throws IOException;
}
