package io.ferry.store;

import java.io.Serializable;
import java.util.Objects;

/**
 * A part of a store's key space that one executor thread lists: the keys under {@code prefix} after {@code after}
 * and up to {@code upTo} (inclusive; "" for no bound), in {@link KeyOrder}. A store's shards cover each of its keys
 * exactly once. For a directory, {@code prefix} is a directory and {@code recursive} says whether its
 * subdirectories belong to the shard.
 */
public record Shard(String prefix, String after, String upTo, boolean recursive) implements Serializable {
  public Shard {
    Objects.requireNonNull(prefix, "prefix is null");
    Objects.requireNonNull(after, "after is null");
    Objects.requireNonNull(upTo, "upTo is null");
    if (!after.isEmpty() && !upTo.isEmpty() && KeyOrder.compare(after, upTo) >= 0) {
      throw new IllegalArgumentException("an empty shard: after '" + after + "' up to '" + upTo + "'");
    }
  }

  /** Every key under {@code prefix}. */
  public static Shard all(String prefix) {
    return new Shard(prefix, "", "", true);
  }

  public boolean contains(String key) {
    return key.startsWith(prefix) && (after.isEmpty() || KeyOrder.compare(key, after) > 0) && !beyond(key);
  }

  /** True for a key after this shard's end: a listing in key order stops there. */
  public boolean beyond(String key) {
    return !upTo.isEmpty() && KeyOrder.compare(key, upTo) > 0;
  }
}
