package io.ferry.commit;

import io.ferry.copy.RangeResult;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import java.io.Serializable;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The ranges of one object seen so far, merged on the cluster before its commit: the parts that finished (their
 * receipts, places and digests), bytes, the first error. Merging is associative and commutative, as
 * {@code reduceByKey} needs: parts are a union, bytes a sum, the error the least by string order.
 *
 * @param expected "algorithm:value" of the source's checksum of the object ("" when none)
 * @param method how the parts were copied (the ranges dataset's method)
 * @param objectDigest the object's digest read back in order as its parts landed (a range result's), "" when none came;
 *     two that differ merge to {@link #CONFLICTING}, which the commit does not trust
 */
public record PartTally(StoreObject object, String location, int partCount, String uploadId, String expected, String method,
    TreeMap<Integer, Part> parts, long bytes, String firstError, String objectDigest) implements Serializable {
  static final String CONFLICTING = "conflicting";

  /**
   * A part that arrived: its receipt (ETag), its place in the object, the CRC32C (hex) of its bytes, and their digest
   * in the source checksum's algorithm ("algorithm:value", "" when none).
   */
  public record Part(String receipt, long offset, long length, String crc32c, String checksum) implements Serializable {}

  public static PartTally of(RangeResult r) {
    TreeMap<Integer, Part> parts = new TreeMap<>();
    boolean ok = r.status() == RangeResult.Status.OK;
    if (ok) parts.put(r.partNumber(), new Part(r.etag(), r.offset(), r.length(), r.crc32c(), r.checksum()));
    String error = ok ? "" : "part " + r.partNumber() + " of " + r.partCount() + ": " + r.error();
    return new PartTally(r.object(), r.destination(), r.partCount(), r.uploadId(), r.expected(), r.method(), parts, r.bytes(), error,
        ok ? r.objectDigest() : "");
  }

  public PartTally merge(PartTally other) {
    TreeMap<Integer, Part> merged = new TreeMap<>(parts);
    merged.putAll(other.parts);
    String error = firstError.isEmpty() ? other.firstError
        : other.firstError.isEmpty() || firstError.compareTo(other.firstError) <= 0 ? firstError : other.firstError;
    if (!uploadId.isEmpty() && !other.uploadId.isEmpty() && !uploadId.equals(other.uploadId)) {
      // parts of two openings of the object never make it: each opening's file or upload lacks the other's parts
      String mixed = "parts went to two openings of the object (" + min(uploadId, other.uploadId) + ", " + max(uploadId, other.uploadId)
          + ")";
      error = error.isEmpty() || mixed.compareTo(error) < 0 ? mixed : error;
    }
    return new PartTally(object, location.isEmpty() ? other.location : location, partCount,
        uploadId.isEmpty() ? other.uploadId : other.uploadId.isEmpty() ? uploadId : min(uploadId, other.uploadId), expected.isEmpty()
            ? other.expected : expected,
        mergeMethods(method, other.method), merged, bytes + other.bytes, error, objectDigest.isEmpty() ? other.objectDigest
            : other.objectDigest.isEmpty() || other.objectDigest.equals(objectDigest) ? objectDigest : CONFLICTING);
  }

  private static String min(String a, String b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static String max(String a, String b) {
    return a.compareTo(b) <= 0 ? b : a;
  }

  /** Any part copied inside the service makes the object's method that; otherwise the least name, whatever the order. */
  private static String mergeMethods(String a, String b) {
    if (a.equals(SERVER_SIDE) || b.equals(SERVER_SIDE)) return SERVER_SIDE;
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static final String SERVER_SIDE = "server-side-copy";

  /** The parts were copied inside the service: no byte passed through Ferry to be checked. */
  public boolean inService() {
    return method.equals(SERVER_SIDE);
  }

  /** Every part arrived whole. */
  public boolean complete() {
    return parts.size() == partCount && firstError.isEmpty();
  }

  /** The upload the object's parts went to. */
  public Upload upload() {
    return new Upload(object, uploadId);
  }

  /** The part receipts in part order, for the completion. */
  public SortedMap<Integer, String> receipts() {
    TreeMap<Integer, String> receipts = new TreeMap<>();
    parts.forEach((n, p) -> receipts.put(n, p.receipt()));
    return receipts;
  }
}
