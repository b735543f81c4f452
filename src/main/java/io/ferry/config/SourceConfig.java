package io.ferry.config;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * What to copy: the objects of a store (under its prefix, or directory) that {@code selection} selects, listed
 * either by the store or from a manifest.
 *
 * @param prefixes the folders to list, relative to the store's prefix (or directory), each ending in '/' and none
 *     inside another; empty for all of it. Destination keys stay relative to the store's prefix.
 * @param manifest an S3 Inventory {@code manifest.json} or a key list (one key per line, optionally with its size and
 *     ETag), as {@code s3://bucket/key} (read with the source's credentials) or a local path; "" to list the store
 * @param checkManifest each manifest entry is checked with a HEAD (a key gone is reported missing), or trusted
 */
public record SourceConfig(StoreConfig store, Selection selection, List<String> prefixes, String manifest, boolean checkManifest)
    implements Serializable {
  public SourceConfig {
    Objects.requireNonNull(store, "store is null");
    Objects.requireNonNull(selection, "selection is null");
    prefixes = List.copyOf(prefixes);
    Objects.requireNonNull(manifest, "manifest is null");
  }

  /** Every object of {@code store}, listed. */
  public static SourceConfig all(StoreConfig store) {
    return new SourceConfig(store, Selection.ALL, List.of(), "", true);
  }

  public String describe() {
    String where = store.describe() + (prefixes.isEmpty() ? "" : " " + prefixes);
    return where + (manifest.isEmpty() ? "" : " (from the manifest " + manifest + ")");
  }
}
