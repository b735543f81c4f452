package io.ferry.spark;

import io.ferry.copy.Opening;
import io.ferry.ledger.Ledger;
import io.ferry.plan.RangeTask;
import io.ferry.store.Destination;
import io.ferry.store.StoreObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * OPEN, on the executors: the object of each first part of the partition opened for a write in parts ({@link Opening}), and recorded in
 * the job's ledger as soon as it is, so that a rerun after a crash finds it.
 */
final class OpenFunction implements FlatMapFunction<Iterator<RangeTask>, Opening.Opened> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;
  private final String ledger;
  private final Broadcast<SerializableConfiguration> hadoop;

  OpenFunction(CopySettings settings, String ledger, Broadcast<SerializableConfiguration> hadoop) {
    this.settings = settings;
    this.ledger = ledger;
    this.hadoop = hadoop;
  }

  @Override
  public Iterator<Opening.Opened> call(Iterator<RangeTask> firstParts) throws Exception {
    Destination destination = ExecutorContext.destination(settings);
    Opening opening = new Opening(ExecutorContext.source(settings).reader(), destination, ExecutorContext.retrier(settings));
    List<Opening.Opened> out = new ArrayList<>();
    TaskContext task = TaskContext.get();
    try (Ledger.Writer writer = new Ledger(ledger, hadoop.value().value())
        .writer(settings.runId() + "-open-" + task.partitionId() + "-" + task.taskAttemptId())) {
      while (firstParts.hasNext()) {
        RangeTask first = firstParts.next();
        Opening.Opened opened = opening.open(first.object());
        if (opened.ok()) {
          writer.opened(LedgerRecords.opened(opened, destination.location(first.object()), first.partCount(), settings.runId()));
        }
        out.add(opened);
      }
    }
    return out.iterator();
  }
}
