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

  /** What listing part of a shard gave: its counts, and the rest of the shard in pieces (none when it was listed to its end). */
  record Listed(ListCounts counts, List<Shard> rest) {}

  /**
   * Lists a shard for about {@code pages} pages (0: to its end) and returns the rest of it in pieces, which a listing
   * spreads over the cluster; a store that does not split a shard so lists it to its end.
   */
  @Retries.Retried
  default Listed listSome(Shard shard, int pages, Consumer<StoreObject> consumer) throws IOException {
    return new Listed(list(shard, consumer), List.of());
  }

  /** As {@link #listSome(Shard, int, Consumer)}, asking {@code pageKeys} keys a page where the store pages. */
  @Retries.Retried
  default Listed listSome(Shard shard, int pages, int pageKeys, Consumer<StoreObject> consumer) throws IOException {
    return listSome(shard, pages, consumer);
  }

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
