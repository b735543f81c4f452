package io.ferry.changes;

import io.ferry.store.StoreObject;

/**
 * Two S3 Inventory reports of one bucket compared row by row (by key): the keys a delta pass looks up are those only
 * one report names and those whose size, ETag or modification time differ between them. An inventory is a day old when
 * it arrives, so what it says is only a reason to look: the pass asks both sides for each key.
 */
public final class InventoryDiff {
  private InventoryDiff() {}

  /**
   * Whether a key's rows in the older and the newer report (null where that report does not name it) say that it changed:
   * added, removed, or another size, ETag (where both give one) or modification time (where both give one).
   */
  public static boolean changed(StoreObject older, StoreObject newer) {
    if (older == null || newer == null) return older != newer;
    if (older.size() != newer.size()) return true;
    if (!older.etag().isEmpty() && !newer.etag().isEmpty() && !older.etag().equals(newer.etag())) return true;
    return older.lastModifiedMillis() != 0 && newer.lastModifiedMillis() != 0 && older.lastModifiedMillis() != newer.lastModifiedMillis();
  }
}
