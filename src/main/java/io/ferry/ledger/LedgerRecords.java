package io.ferry.ledger;

import io.ferry.copy.Opener;
import io.ferry.copy.RangeResult;
import io.ferry.plan.RangeTask;
import io.ferry.plan.Versions;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Ledger entries from the pipeline's results, and back. */
public final class LedgerRecords {
  private LedgerRecords() {}

  public static Ledger.Opened opened(Upload upload, String location, long partSize, int parts, String expected, String run) {
    StoreObject o = upload.object();
    return new Ledger.Opened(o.key(), o.relativeKey(), o.size(), o.etag(), o.lastModifiedMillis(), o.version(), location, upload.id(),
        partSize, parts, expected, run);
  }

  public static Ledger.Opened opened(Opener.Outcome o, String location, long partSize, int parts, String run) {
    return opened(o.upload(), location, partSize, parts, o.expected() == null ? "" : o.expected().text(), run);
  }

  public static Ledger.Copied copied(RangeResult r) {
    return new Ledger.Copied(r.object().key(), r.uploadId(), r.partNumber(), r.offset(), r.length(), r.etag(), r.crc32c(), r.checksum());
  }

  public static StoreObject object(Ledger.Opened o) {
    return new StoreObject(o.key(), o.relativeKey(), o.size(), o.etag(), o.lastModified(), o.version() == null ? "" : o.version());
  }

  /**
   * Whether a ledger's opened object is the planned {@code first} part's object, cut alike: the same source version,
   * part size and part count (a changed source, or a plan with another part size, is not).
   */
  public static boolean same(Ledger.Opened o, RangeTask first) {
    return object(o).equals(first.object()) && o.partSize() == first.range().length() && o.parts() == first.partCount();
  }

  /** What the ledger knows of the job's replays, by key: the versions they wrote, and those they were writing. */
  public static Map<String, Versions.Known> replays(Ledger.State state) {
    Map<String, Versions.Known> known = new HashMap<>();
    Set<String> keys = new TreeSet<>(state.written().keySet());
    keys.addAll(state.writing().keySet());
    for (String key : keys) {
      known.put(key, new Versions.Known(new HashMap<>(state.written().getOrDefault(key, Map.of())),
          new HashSet<>(state.writing().getOrDefault(key, Set.of()))));
    }
    return known;
  }
}
