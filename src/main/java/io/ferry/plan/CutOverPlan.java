package io.ferry.plan;

import io.ferry.config.CutOver;
import java.util.Locale;

/**
 * Whether a run's cut-over pass deletes, and why not when it does not: a pure rule of the run's counts. The pass
 * runs only after a run that copied everything it selected (no object failed, none was rejected) and only within
 * its cap; a listing that failed ended the run before this rule is asked.
 *
 * @param outcome NONE when there is nothing to decide (the pass is off, or nothing is extraneous)
 */
public record CutOverPlan(Outcome outcome, String reason) {
  public enum Outcome {
    NONE("none"), RUN("ran"), SKIPPED("skipped"), REFUSED("refused");

    private final String word;

    Outcome(String word) {
      this.word = word;
    }

    /** As a run's summary names it. */
    public String word() {
      return word;
    }
  }

  /**
   * @param extraneous the destination's objects in the selection that the source's listing lacks
   * @param copied the objects of the selection the run copies or finds unchanged: with the extraneous ones, what the
   *     destination holds in the selection before the pass, which its percentage cap is of
   */
  public static CutOverPlan decide(CutOver cutOver, long extraneous, long copied, long failed, long rejected) {
    return decide(cutOver, extraneous, copied, failed, rejected, 0);
  }

  /**
   * @param linksLeft symbolic links the source holds and the run reported without copying: a link may stand for a
   *     folder whose files the destination holds, which the source then still has, so the pass deletes nothing
   */
  public static CutOverPlan decide(CutOver cutOver, long extraneous, long copied, long failed, long rejected, long linksLeft) {
    return decide(cutOver, extraneous, copied, failed, rejected, linksLeft, 0);
  }

  /** @param archivedLeft objects archived at the source that the run did not copy (failed, skipped or being restored) */
  public static CutOverPlan decide(CutOver cutOver, long extraneous, long copied, long failed, long rejected, long linksLeft,
      long archivedLeft) {
    long destination = copied + extraneous;
    if (!cutOver.enabled() || extraneous == 0) return new CutOverPlan(Outcome.NONE, "");
    if (failed > 0) {
      return new CutOverPlan(Outcome.SKIPPED, failed + " objects failed: a run that did not copy everything it selected deletes nothing");
    }
    if (rejected > 0) {
      return new CutOverPlan(Outcome.SKIPPED, rejected + " objects were rejected (not copied): a run that did not copy everything it"
          + " selected deletes nothing");
    }
    if (linksLeft > 0) {
      return new CutOverPlan(Outcome.SKIPPED, linksLeft + " symbolic links were reported, not copied: a link may stand for files the"
          + " destination holds, so nothing is deleted (source.symlinks = follow copies links to files, copy every link as a link)");
    }
    if (archivedLeft > 0) {
      return new CutOverPlan(Outcome.SKIPPED, archivedLeft + " objects archived at the source were not copied: a run that did not"
          + " copy everything it selected deletes nothing");
    }
    if (!cutOver.allows(extraneous, destination)) {
      return new CutOverPlan(Outcome.REFUSED, String.format(Locale.ROOT, "it would delete %d of the %d objects the destination holds in"
          + " the selection once this run copied (%.1f%%), over ferry.destination.max-delete = %s: nothing deleted. If the source"
          + " really no longer holds them, raise destination.max-delete (\"100%%\" for no cap)", extraneous, destination,
          destination == 0 ? 100.0 : 100.0 * extraneous / destination, cutOver.cap()));
    }
    return new CutOverPlan(Outcome.RUN, "");
  }
}
