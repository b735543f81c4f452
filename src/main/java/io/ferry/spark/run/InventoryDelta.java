package io.ferry.spark.run;

import io.ferry.config.BucketConfig;
import io.ferry.config.ChangesConfig;
import io.ferry.ledger.InventoryMark;
import io.ferry.report.RunSummary;
import io.ferry.spark.Actions;
import io.ferry.spark.Held;
import io.ferry.spark.JobFailure;
import io.ferry.spark.Listing;
import io.ferry.store.retry.Failures;
import java.io.IOException;
import java.time.Instant;
import java.util.Set;
import org.apache.spark.api.java.JavaRDD;

/**
 * A delta pass from two S3 Inventory reports ({@code source.changes = inventory-diff}): the keys they differ in, found
 * by the executors (both reports read and joined by key), neither bucket listed.
 */
final class InventoryDelta implements Delta {
  private final ChangesConfig.InventoryDiff changes;
  private final boolean writes;
  private long newerMillis;
  private boolean gap;

  /** @param writes false for a dry run: it keeps no mark */
  InventoryDelta(ChangesConfig.InventoryDiff changes, boolean writes) {
    this.changes = changes;
    this.writes = writes;
  }

  @Override
  public JavaRDD<String> keys(RunContext run, Held cache) throws JobFailure {
    run.jsc().setJobGroup("LIST", "LIST: the keys the inventories " + changes.older() + " and " + changes.newer() + " differ in", true);
    Listing.Inventories diff = Listing.inventoryDiff(run.jsc(), run.settings(), changes.older(), changes.newer());
    newerMillis = diff.newer().createdMillis();
    JavaRDD<String> keys = cache.persist(diff.keys());
    long count = Actions.run(keys::count, "cannot compare the inventories " + changes.older() + " and " + changes.newer(),
        " (check ferry.source.inventory-diff, and that the source's credentials may read both)");
    run.out().printf("INVENTORIES %d keys differ between %s and %s%n", count, changes.older(), changes.newer());
    warnOfGap(run, diff.older().createdMillis());
    run.stages().lap("changes");
    return keys.repartition(Delta.slices(run.jsc(), count));
  }

  /** Changes made between the last settled pass's newer report and this pass's older one are in neither diff. */
  private void warnOfGap(RunContext run, long olderMillis) throws JobFailure {
    InventoryMark mark;
    try {
      mark = InventoryMark.read(run.ledger());
    } catch (IOException e) {
      throw new JobFailure("cannot read the job's ledger at " + run.ledger().directory() + ": " + Failures.describe(e));
    }
    gap = mark.gapBefore(olderMillis);
    if (gap) {
      run.out().printf("INVENTORIES: changes may have been missed: every key was last settled as of %s (%s), and the older"
          + " report %s was made after that, so what changed between is in neither diff: run a full pass (source.changes ="
          + " listing), or a diff from a report made by then%n", mark.report(), Instant.ofEpochMilli(mark.createdMillis()),
          changes.older());
    }
  }

  /**
   * After COMMIT and the cut-over: the mark moves to this pass's newer report once every key it found is settled, and
   * the pass left no gap (the mark stays where what changed was last all seen, so each later pass says so until a diff
   * from it, or a full pass, covers the gap).
   */
  @Override
  public void settle(RunContext run, Planned planned, Mode.Committed committed, RunSummary.Deletions deletions) throws IOException {
    if (!writes || newerMillis == 0 || gap) return;
    Set<String> pending = EventDelta.unsettled(planned, committed, deletions);
    if (pending.isEmpty()) {
      new InventoryMark(changes.newer(), newerMillis).write(run.ledger());
    } else {
      run.out().printf("INVENTORIES: %d keys not settled (first: %s): the next diff must start from %s or earlier, or a pass"
          + " from later reports will say changes may have been missed%n", pending.size(), pending.stream().sorted().findFirst()
          .orElse(""), changes.older());
    }
  }

  /**
   * After a full pass of a job whose inventory diffs keep a mark: where every key settled, what changed before the pass
   * began is copied, so a diff from a report made before then misses nothing.
   */
  static void fullPassSettled(RunContext run, Planned planned, Mode.Committed committed, RunSummary.Deletions deletions) {
    if (!(run.config().source().store() instanceof BucketConfig)) return; // inventories are a bucket's
    try {
      InventoryMark mark = InventoryMark.read(run.ledger());
      if (mark.createdMillis() == 0 || mark.createdMillis() >= run.started().toEpochMilli()) return;
      if (EventDelta.unsettled(planned, committed, deletions).isEmpty()) {
        new InventoryMark("the full pass " + run.settings().runId(), run.started().toEpochMilli()).write(run.ledger());
      }
    } catch (IOException e) { // the copy is done: a mark left behind costs a warning, not the run
      run.out().printf("INVENTORIES: cannot move the mark of settled changes in the ledger (%s): the next diff may say changes were"
          + " missed%n", Failures.describe(e));
    }
  }
}
