package io.ferry.commit;

import io.ferry.copy.RangeResult;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import java.io.Serializable;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The ranges of one object seen so far, merged on the cluster before its commit: the parts that finished with their
 * receipts (ETags), bytes, the first error. Merging is associative and commutative, as {@code reduceByKey} needs:
 * parts are a union, bytes a sum, the error the least by string order.
 */
public record PartTally(StoreObject object, String location, int partCount, String uploadId,
    TreeMap<Integer, String> okParts, long bytes, String firstError) implements Serializable {

  public static PartTally of(RangeResult r) {
    TreeMap<Integer, String> ok = new TreeMap<>();
    if (r.status() == RangeResult.Status.OK) ok.put(r.partNumber(), r.etag());
    String error = r.status() == RangeResult.Status.OK ? "" : "part " + r.partNumber() + " of " + r.partCount() + ": " + r.error();
    return new PartTally(r.object(), r.destination(), r.partCount(), r.uploadId(), ok, r.bytes(), error);
  }

  public PartTally merge(PartTally other) {
    TreeMap<Integer, String> ok = new TreeMap<>(okParts);
    ok.putAll(other.okParts);
    String error = firstError.isEmpty() ? other.firstError
        : other.firstError.isEmpty() || firstError.compareTo(other.firstError) <= 0 ? firstError : other.firstError;
    return new PartTally(object, location.isEmpty() ? other.location : location, partCount,
        uploadId.isEmpty() ? other.uploadId : uploadId, ok, bytes + other.bytes, error);
  }

  /** Every part arrived whole. */
  public boolean complete() {
    return okParts.size() == partCount && firstError.isEmpty();
  }

  /** The upload the object's parts went to. */
  public Upload upload() {
    return new Upload(object, uploadId);
  }

  /** The part receipts in part order, for the completion. */
  public SortedMap<Integer, String> receipts() {
    return okParts;
  }
}
