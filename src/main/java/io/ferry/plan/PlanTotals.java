package io.ferry.plan;

import java.io.Serializable;

/**
 * The counts a plan adds up to, summed over its partitions: what to copy and what the triage set aside.
 *
 * @param objects objects to copy (an object split into parts counts once: at its first part)
 * @param wholeRanges ranges that are whole objects; the others are parts
 * @param gets ranges with bytes to read (an empty object needs no request)
 * @param extraneousBytes bytes of the destination's extraneous objects
 * @param notCopied symbolic links left by the job's settings, each reported
 * @param archived archived at the source and not readable (whatever {@code source.archived} does with them; each was
 *     asked a HEAD by the listing)
 * @param restores of those, the ones a RestoreObject is to be sent for (restore, and none under way)
 * @param restoreBytes their bytes
 */
public record PlanTotals(long objects, long bytes, long ranges, long splitObjects, long tasks, long wholeRanges, long gets,
    long unchanged, long rejected, long filtered, long extraneous, long extraneousBytes, long notCopied, long archived, long restores,
    long restoreBytes) implements Serializable {
  public static final PlanTotals NONE = new PlanTotals(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  public PlanTotals(long objects, long bytes, long ranges, long splitObjects, long tasks, long wholeRanges, long gets, long unchanged,
      long rejected, long filtered, long extraneous, long extraneousBytes) {
    this(objects, bytes, ranges, splitObjects, tasks, wholeRanges, gets, unchanged, rejected, filtered, extraneous, extraneousBytes,
        0, 0, 0, 0);
  }

  private static PlanTotals setAside(long notCopied, long archived, long restores, long restoreBytes) {
    return new PlanTotals(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, notCopied, archived, restores, restoreBytes);
  }

  public static PlanTotals of(CopyTask task) {
    long objects = 0, bytes = 0, split = 0, whole = 0, gets = 0;
    for (RangeTask r : task.ranges()) {
      if (r.wholeObject()) whole++;
      if (r.partNumber() == 1) {
        objects++;
        bytes += r.object().size();
        if (!r.wholeObject()) split++;
      }
      if (r.range().length() > 0) gets++;
    }
    return new PlanTotals(objects, bytes, task.ranges().size(), split, 1, whole, gets, 0, 0, 0, 0, 0);
  }

  /** What a decision other than COPY adds (a COPY is counted by its tasks). */
  public static PlanTotals of(Decision d) {
    return switch (d.kind()) {
      case UNCHANGED -> skipped(1);
      case REJECTED -> new PlanTotals(0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0);
      case FILTERED -> new PlanTotals(0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0);
      case EXTRANEOUS -> new PlanTotals(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, d.object().size());
      case NOT_COPIED -> d.object().isArchived() ? setAside(0, 1, 0, 0) : setAside(1, 0, 0, 0);
      case ARCHIVED -> setAside(0, 1, 0, 0);
      case RESTORE -> d.object().restoring() ? setAside(0, 1, 0, 0) : setAside(0, 1, 1, d.object().size());
      case COPY -> NONE;
    };
  }

  static PlanTotals skipped(long unchanged) {
    return new PlanTotals(0, 0, 0, 0, 0, 0, 0, unchanged, 0, 0, 0, 0);
  }

  public PlanTotals plus(PlanTotals o) {
    return new PlanTotals(objects + o.objects, bytes + o.bytes, ranges + o.ranges, splitObjects + o.splitObjects, tasks + o.tasks,
        wholeRanges + o.wholeRanges, gets + o.gets, unchanged + o.unchanged, rejected + o.rejected, filtered + o.filtered,
        extraneous + o.extraneous, extraneousBytes + o.extraneousBytes, notCopied + o.notCopied, archived + o.archived,
        restores + o.restores, restoreBytes + o.restoreBytes);
  }

  /** These totals less {@code o}'s, a part of them. */
  public PlanTotals minus(PlanTotals o) {
    return new PlanTotals(objects - o.objects, bytes - o.bytes, ranges - o.ranges, splitObjects - o.splitObjects, tasks - o.tasks,
        wholeRanges - o.wholeRanges, gets - o.gets, unchanged - o.unchanged, rejected - o.rejected, filtered - o.filtered,
        extraneous - o.extraneous, extraneousBytes - o.extraneousBytes, notCopied - o.notCopied, archived - o.archived,
        restores - o.restores, restoreBytes - o.restoreBytes);
  }

  public long partRanges() {
    return ranges - wholeRanges;
  }
}
