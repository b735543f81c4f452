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
  public static final PlanTotals NONE = decided(0, 0, 0, 0, 0);

  /** What {@code tasks} tasks copy: objects (counted at their first part), their bytes, and the ranges. */
  public static PlanTotals copying(long objects, long bytes, long ranges, long splitObjects, long tasks, long wholeRanges, long gets) {
    return new PlanTotals(objects, bytes, ranges, splitObjects, tasks, wholeRanges, gets, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /** What the triage decided besides copying: skipped unchanged, rejected, filtered, extraneous (and its bytes). */
  static PlanTotals decided(long unchanged, long rejected, long filtered, long extraneous, long extraneousBytes) {
    return new PlanTotals(0, 0, 0, 0, 0, 0, 0, unchanged, rejected, filtered, extraneous, extraneousBytes, 0, 0, 0, 0);
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
    return copying(objects, bytes, task.ranges().size(), split, 1, whole, gets);
  }

  /** What a decision other than COPY adds (a COPY is counted by its tasks). */
  public static PlanTotals of(Decision d) {
    return switch (d.kind()) {
      case UNCHANGED -> skipped(1);
      case REJECTED -> decided(0, 1, 0, 0, 0);
      case FILTERED -> decided(0, 0, 1, 0, 0);
      case EXTRANEOUS -> decided(0, 0, 0, 1, d.object().size());
      case NOT_COPIED -> d.object().isArchived() ? setAside(0, 1, 0, 0) : setAside(1, 0, 0, 0);
      case ARCHIVED -> setAside(0, 1, 0, 0);
      case RESTORE -> d.object().restoring() ? setAside(0, 1, 0, 0) : setAside(0, 1, 1, d.object().size());
      case COPY -> NONE;
    };
  }

  static PlanTotals skipped(long unchanged) {
    return decided(unchanged, 0, 0, 0, 0);
  }

  public PlanTotals plus(PlanTotals o) {
    return new PlanTotals(objects + o.objects, bytes + o.bytes, ranges + o.ranges, splitObjects + o.splitObjects, tasks + o.tasks,
        wholeRanges + o.wholeRanges, gets + o.gets, unchanged + o.unchanged, rejected + o.rejected, filtered + o.filtered,
        extraneous + o.extraneous, extraneousBytes + o.extraneousBytes, notCopied + o.notCopied, archived + o.archived,
        restores + o.restores, restoreBytes + o.restoreBytes);
  }

  public long partRanges() {
    return ranges - wholeRanges;
  }
}
