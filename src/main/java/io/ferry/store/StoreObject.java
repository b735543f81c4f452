package io.ferry.store;

import java.io.Serializable;
import java.util.Objects;

/**
 * One object to copy, as listed at the source.
 *
 * @param key the full key in the source bucket
 * @param relativeKey the key relative to the source prefix: the path under the destination
 * @param size bytes
 * @param etag the source ETag, unquoted ("" when unknown)
 * @param lastModifiedMillis modification time, epoch milliseconds
 */
public record StoreObject(String key, String relativeKey, long size, String etag, long lastModifiedMillis)
    implements Serializable {
  public StoreObject {
    Objects.requireNonNull(key, "key is null");
    Objects.requireNonNull(relativeKey, "relativeKey is null");
    Objects.requireNonNull(etag, "etag is null");
    if (size < 0) throw new IllegalArgumentException("size is negative: " + size);
  }
}
