package io.ferry.spark.run;

import io.ferry.ledger.Ledger;
import io.ferry.ledger.LedgerRecords;
import io.ferry.ledger.Resumption;
import io.ferry.plan.RangeTask;
import io.ferry.spark.ExecutorContext;
import io.ferry.store.Destination;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.retry.Retrier;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the run takes over from earlier ones, before it opens anything: their uploads the plan does not resume and
 * those they lost are aborted, their strays removed.
 */
final class TakeOverStage {
  private TakeOverStage() {}

  /** Returns the ledger's entries that stay open (aborts that failed, uploads at another destination). */
  static List<Ledger.Opened> run(RunContext run, Planned planned) throws IOException {
    Destination destination = run.destination();
    Retrier retrier = ExecutorContext.retrier(run.settings());
    Resumption resumption = run.resumption().value();
    Set<String> matched = resumption.isEmpty() ? Set.of() : new HashSet<>(planned.plan().tasks().filter(t -> {
      RangeTask first = t.ranges().get(0);
      return !first.wholeObject() && first.partNumber() == 1 && resumption.matches(first);
    }).map(t -> t.ranges().get(0).object().relativeKey()).collect());
    Resumption.Aborted unused = resumption.abortUnused(matched, destination, retrier);
    Console.printAborted(run.out(), unused, "objects earlier runs opened and this one does not resume (the source changed, or they"
        + " were done)");
    Console.printAborted(run.out(), resumption.abortLost(destination, retrier), "uploads an earlier run opened at keys it was writing"
        + " but never recorded");
    List<Ledger.Opened> stillOpen = new ArrayList<>(unused.kept());
    stillOpen.addAll(resumption.elsewhere());
    Set<String> staged = new HashSet<>(); // temp files of uploads the ledger names: resumed, or aborted above
    for (Ledger.Opened entry : resumption.here().values()) {
      staged.add(destination.stagedAt(new Upload(LedgerRecords.object(entry), entry.uploadId())));
    }
    for (StoreObject stray : planned.strays()) if (!staged.contains(stray.relativeKey())) destination.removeStray(stray);
    return stillOpen;
  }
}
