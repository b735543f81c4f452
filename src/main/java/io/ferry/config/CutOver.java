package io.ferry.config;

import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;

/**
 * The cut-over pass of a sync ({@code destination.delete-extraneous}): what the destination holds inside the job's
 * selection that the source no longer has is deleted, or moved aside, after a run that copied everything it selected.
 *
 * @param enabled whether the pass runs at all
 * @param maxCount the most objects one pass deletes, or -1 for no count cap
 * @param maxPercent the most one pass deletes as a percentage of the destination's objects in the selection, or -1
 * @param moveTo where deleted objects go instead (a directory outside the destination, or a key prefix of the
 *     destination bucket outside its prefix), "" to delete them
 */
public record CutOver(boolean enabled, long maxCount, double maxPercent, String moveTo) implements Serializable {
  public static final CutOver OFF = new CutOver(false, -1, 50, "");

  public CutOver {
    Objects.requireNonNull(moveTo, "moveTo is null");
    if ((maxCount < 0) == (maxPercent < 0)) throw new IllegalArgumentException("a cap is a count or a percentage, one of them");
  }

  /**
   * {@code max-delete} as written: a count ("1000") or a percentage of the destination ("50%"; "100%" for no cap).
   *
   * @throws IllegalArgumentException for anything else
   */
  public static CutOver of(boolean enabled, String maxDelete, String moveTo) {
    String cap = maxDelete.trim();
    if (cap.endsWith("%")) {
      double percent = Double.parseDouble(cap.substring(0, cap.length() - 1).trim());
      if (!(percent >= 0 && percent <= 100)) throw new IllegalArgumentException("a percentage must be between 0% and 100%");
      return new CutOver(enabled, -1, percent, moveTo);
    }
    long count = Long.parseLong(cap);
    if (count < 0) throw new IllegalArgumentException("a count must not be negative");
    return new CutOver(enabled, count, -1, moveTo);
  }

  /** Whether deleting {@code deletions} of the {@code destination} objects in the selection stays within the cap. */
  public boolean allows(long deletions, long destination) {
    if (maxCount >= 0) return deletions <= maxCount;
    return deletions * 100.0 <= maxPercent * Math.max(0, destination) + 1e-9;
  }

  /** The cap as written, for messages: "50%" or "1000". */
  public String cap() {
    if (maxCount >= 0) return Long.toString(maxCount);
    return (maxPercent == Math.rint(maxPercent) ? String.format(Locale.ROOT, "%d", (long) maxPercent) : Double.toString(maxPercent)) + "%";
  }

  public boolean moves() {
    return !moveTo.isEmpty();
  }
}
