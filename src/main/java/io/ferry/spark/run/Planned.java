package io.ferry.spark.run;

import io.ferry.commit.ObjectResult;
import io.ferry.plan.CopyTask;
import io.ferry.plan.Decision;
import io.ferry.plan.PlanTotals;
import io.ferry.spark.HardLinks;
import io.ferry.spark.Held;
import io.ferry.store.ListCounts;
import io.ferry.store.StoreObject;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;

/**
 * What LIST and PLAN made, spread over the executors (cached there until closed).
 *
 * @param strays what earlier runs of the job left at the destination outside its ledger (bounded: temp files)
 * @param histories under {@code source.versions = all} into a bucket, each key's versions to write, oldest first: the
 *     plan's tasks hold the first of each that is no delete marker, the rest are written in generations after it
 *     ({@link VersionReplay}); empty otherwise
 * @param links each file's other names, made hard links to its copy once it is committed ({@link HardLinking}); empty
 *     otherwise
 * @param cache the plan's own datasets and broadcasts, released with it
 */
record Planned(Plan plan, SetAside setAside, Notes notes, List<StoreObject> strays, JavaRDD<List<StoreObject>> histories,
    JavaRDD<HardLinks.Link> links, Held cache) implements AutoCloseable {

  /** The tasks to copy, and what they and the decisions add up to. */
  record Plan(JavaRDD<CopyTask> tasks, PlanTotals totals) {}

  /**
   * What is not copied.
   *
   * @param decisions the rejected, archived, not copied and extraneous objects, with the reasons
   * @param missing objects the manifest names that the source no longer holds
   * @param restoring the rows of the archived objects a restore left: restoring, or failed (empty without restores)
   */
  record SetAside(JavaRDD<Decision> decisions, JavaRDD<StoreObject> missing, long missingCount, JavaRDD<ObjectResult> restoring) {
    JavaRDD<Decision> of(Decision.Kind kind) {
      return decisions.filter(d -> d.kind() == kind);
    }
  }

  /**
   * What the console and the report say of the listing and the plan.
   *
   * @param listedIn how the source was listed: "n shards", or "n pieces of the manifest"
   * @param partSize what {@code plan.part-size = auto} chose and from what
   */
  record Notes(ListCounts listing, ListCounts existing, String listedIn, Optional<String> partSize) {}

  PlanTotals totals() {
    return plan.totals();
  }

  @Override
  public void close() {
    cache.close();
  }
}
