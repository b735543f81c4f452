package io.ferry.spark.run;

import io.ferry.commit.ObjectResult;
import io.ferry.commit.PartTally;
import io.ferry.copy.RangeResult;
import io.ferry.ledger.Ledger;
import io.ferry.ledger.LedgerRecords;
import io.ferry.plan.PlanTotals;
import io.ferry.spark.CommitFunction;
import io.ferry.store.Destination;
import io.ferry.store.Upload;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaRDD;
import scala.Tuple2;

/**
 * COMMIT: each object checked and completed, or aborted. An object copied in one range is committed where its range
 * result lies, in the copy's own partitions (no shuffle); only the parts of split objects are brought together by key
 * first.
 */
final class CommitStage {
  private CommitStage() {}

  /** @param what the commit's job description (the plan, or a replay's generation) */
  static JavaRDD<ObjectResult> run(RunContext run, CopyStage.Copied copied, PlanTotals totals, String what) {
    run.jsc().setJobGroup("COMMIT", "COMMIT: " + what, true);
    var settings = run.settings();
    JavaRDD<RangeResult> ranges = copied.ranges();
    JavaRDD<ObjectResult> whole = ranges.filter(r -> r.partCount() == 1).map(PartTally::of).mapPartitions(new CommitFunction(settings));
    if (totals.splitObjects() == 0) return run.held().persist(whole);
    JavaRDD<ObjectResult> split = ranges.filter(r -> r.partCount() > 1)
        .mapToPair(r -> new Tuple2<>(r.object().relativeKey(), PartTally.of(r))) // versions of a key go to names of their own
        .reduceByKey(PartTally::merge)
        .values()
        .mapPartitions(new CommitFunction(settings));
    return run.held().persist(totals.splitObjects() == totals.objects() ? split : whole.union(split));
  }

  /** The objects that failed: how many, and the keys of those written in parts (their uploads may stay open). */
  record Failed(long count, List<String> inParts) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** One pass over the commit's results (a pass deserializes each of them again). */
    static Failed of(JavaRDD<ObjectResult> objects) {
      return objects.mapPartitions(rows -> {
        long count = 0;
        List<String> inParts = new ArrayList<>();
        while (rows.hasNext()) {
          ObjectResult o = rows.next();
          if (o.status() != ObjectResult.Status.FAILED) continue;
          count++;
          if (o.parts() > 1) inParts.add(o.object().relativeKey());
        }
        return List.of(new Failed(count, inParts)).iterator();
      }).fold(new Failed(0, List.of()), Failed::plus);
    }

    Failed plus(Failed other) {
      List<String> both = new ArrayList<>(inParts);
      both.addAll(other.inParts);
      return new Failed(count + other.count, both);
    }
  }

  /**
   * After the commit, the ledger keeps only what is still open: the uploads of objects that failed and whose abort
   * failed too (they are checked with the destination), and {@code stillOpen}; everything else was completed or
   * aborted.
   */
  static void keepOpenOnly(RunContext run, List<String> failedInParts, List<Ledger.Opened> stillOpen) throws IOException {
    Destination destination = run.destination();
    Ledger.State state = run.ledger().read();
    List<Ledger.Opened> keep = new ArrayList<>(stillOpen);
    for (String key : failedInParts) {
      Ledger.Opened entry = state.opened().get(key);
      if (entry != null && stillThere(destination, new Upload(LedgerRecords.object(entry), entry.uploadId()))) keep.add(entry);
    }
    run.ledger().keepOnly(keep, state);
  }

  /** Whether an upload is still open; when the destination cannot say (it refuses the request), it is kept as open. */
  private static boolean stillThere(Destination destination, Upload upload) {
    try {
      return destination.partsStillThere(upload, new TreeMap<>()) != null;
    } catch (IOException | RuntimeException e) {
      return true;
    }
  }
}
