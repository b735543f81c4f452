package io.ferry.spark;

import io.ferry.copy.Opening;
import io.ferry.copy.RangeResult;
import io.ferry.ledger.Ledger;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;

/** Ledger entries from the pipeline's results, and back. */
final class LedgerRecords {
  private LedgerRecords() {}

  static Ledger.Opened opened(Upload upload, String location, int parts, String expected, String run) {
    StoreObject o = upload.object();
    return new Ledger.Opened(o.key(), o.relativeKey(), o.size(), o.etag(), o.lastModifiedMillis(), location, upload.id(), parts,
        expected, run);
  }

  static Ledger.Opened opened(Opening.Opened o, String location, int parts, String run) {
    return opened(o.upload(), location, parts, o.expected() == null ? "" : o.expected().text(), run);
  }

  static Ledger.Copied copied(RangeResult r) {
    return new Ledger.Copied(r.object().key(), r.uploadId(), r.partNumber(), r.offset(), r.length(), r.etag(), r.crc32c(), r.checksum());
  }

  static StoreObject object(Ledger.Opened o) {
    return new StoreObject(o.key(), o.relativeKey(), o.size(), o.etag(), o.lastModified());
  }

  /** Whether a ledger's opened object is the planned {@code object} in {@code parts} parts (a changed source is not). */
  static boolean same(Ledger.Opened o, StoreObject object, int parts) {
    return object(o).equals(object) && o.parts() == parts;
  }
}
