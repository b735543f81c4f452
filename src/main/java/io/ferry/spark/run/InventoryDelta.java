package io.ferry.spark.run;

import io.ferry.config.ChangesConfig;
import io.ferry.spark.Actions;
import io.ferry.spark.Held;
import io.ferry.spark.JobFailure;
import io.ferry.spark.Listing;
import org.apache.spark.api.java.JavaRDD;

/**
 * A delta pass from two S3 Inventory reports ({@code source.changes = inventory-diff}): the keys they differ in, found
 * by the executors (both reports read and joined by key), neither bucket listed.
 */
final class InventoryDelta implements Delta {
  private final ChangesConfig.InventoryDiff changes;

  InventoryDelta(ChangesConfig.InventoryDiff changes) {
    this.changes = changes;
  }

  @Override
  public JavaRDD<String> keys(RunContext run, Held cache) throws JobFailure {
    run.jsc().setJobGroup("LIST", "LIST: the keys the inventories " + changes.older() + " and " + changes.newer() + " differ in", true);
    JavaRDD<String> diff = cache.persist(Listing.inventoryDiff(run.jsc(), run.settings(), changes.older(), changes.newer()));
    long count = Actions.run(diff::count, "cannot compare the inventories " + changes.older() + " and " + changes.newer(),
        " (check ferry.source.inventory-diff, and that the source's credentials may read both)");
    run.out().printf("INVENTORIES %d keys differ between %s and %s%n", count, changes.older(), changes.newer());
    run.stages().lap("changes");
    return diff.repartition(Delta.slices(run.jsc(), count));
  }
}
