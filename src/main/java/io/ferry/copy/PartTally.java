package io.ferry.copy;

import io.ferry.plan.SourceObject;
import java.io.Serializable;
import java.util.BitSet;

/**
 * The ranges of one object seen so far, merged on the cluster before its commit: which parts finished, their bytes,
 * the first error. Merging is associative and commutative, as {@code reduceByKey} needs.
 */
public record PartTally(SourceObject object, String destination, int partCount, BitSet okParts, long bytes, String firstError)
    implements Serializable {

  public static PartTally of(RangeResult r) {
    BitSet ok = new BitSet(r.partCount() + 1);
    if (r.status() == RangeResult.Status.OK) ok.set(r.partNumber());
    String error = r.status() == RangeResult.Status.OK ? "" : "part " + r.partNumber() + " of " + r.partCount() + ": " + r.error();
    return new PartTally(r.object(), r.destination(), r.partCount(), ok, r.bytes(), error);
  }

  public PartTally merge(PartTally other) {
    BitSet ok = (BitSet) okParts.clone();
    ok.or(other.okParts);
    String error = firstError.isEmpty() ? other.firstError
        : other.firstError.isEmpty() || firstError.compareTo(other.firstError) <= 0 ? firstError : other.firstError;
    return new PartTally(object, destination.isEmpty() ? other.destination : destination, partCount, ok, bytes + other.bytes, error);
  }

  /** Every part arrived whole. */
  public boolean complete() {
    return okParts.cardinality() == partCount && firstError.isEmpty();
  }
}
