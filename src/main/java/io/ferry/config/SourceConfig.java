package io.ferry.config;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * What to copy: the objects of a store (under its prefix, or directory) that {@code selection} selects, listed
 * either by the store or from a manifest.
 *
 * @param manifest an S3 Inventory {@code manifest.json} or a key list (one key per line, optionally with its size and
 *     ETag), as {@code s3://bucket/key} (read with the source's credentials) or a local path; "" to list the store
 * @param checkManifest each manifest entry is checked with a HEAD (a key gone is reported missing), or trusted
 * @param manifestComplete the user declares the manifest a complete inventory of the source's selection, so a cut-over
 *     pass may take what it does not name as gone from the source (each deletion is still checked at the source)
 * @param archived what becomes of an object archived at the source
 * @param changes how a run learns which keys to look at: a full listing, or the source's change events
 */
public record SourceConfig(StoreConfig store, Selection selection, String manifest, boolean checkManifest, boolean manifestComplete,
    ArchivedConfig archived, ChangesConfig changes) implements Serializable {
  public SourceConfig {
    Objects.requireNonNull(store, "store is null");
    Objects.requireNonNull(archived, "archived is null");
    Objects.requireNonNull(selection, "selection is null");
    Objects.requireNonNull(manifest, "manifest is null");
    Objects.requireNonNull(changes, "changes is null");
  }

  /** Every object of {@code store}, listed. */
  public static SourceConfig all(StoreConfig store) {
    return new SourceConfig(store, Selection.ALL, "", true, false, ArchivedConfig.FAIL, ChangesConfig.LISTING);
  }

  /** This source, reached as {@code other}. */
  public SourceConfig withStore(StoreConfig other) {
    return new SourceConfig(other, selection, manifest, checkManifest, manifestComplete, archived, changes);
  }

  /** The folders to list, relative to the store's prefix (or directory); empty for all of it. */
  public List<String> prefixes() {
    return selection.prefixes();
  }

  public String describe() {
    String where = store.describe() + (prefixes().isEmpty() ? "" : " " + prefixes());
    if (changes.delta()) return where + " (" + changes.describe() + ")";
    return where + (manifest.isEmpty() ? "" : " (from the manifest " + manifest + ")");
  }
}
