package io.ferry.spark;

import io.ferry.copy.Assignment;
import io.ferry.copy.ConcurrentRanges;
import io.ferry.copy.RangeResult;
import io.ferry.ledger.Ledger;
import io.ferry.ledger.LedgerFile;
import io.ferry.ledger.LedgerRecords;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * COPY, on the executors: the ranges of a partition's tasks, copied with {@code streams-per-task} streams; each part
 * of an object written in parts is recorded in the job's ledger as soon as it landed, so that a rerun after a crash
 * copies only the parts that had not.
 */
public final class CopyRangesFunction implements FlatMapFunction<Iterator<Assignment>, RangeResult> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;
  private final String ledger;
  private final Broadcast<SerializableConfiguration> hadoop;
  private final CopyCounters counters;

  public CopyRangesFunction(CopySettings settings, String ledger, Broadcast<SerializableConfiguration> hadoop, CopyCounters counters) {
    this.settings = settings;
    this.ledger = ledger;
    this.hadoop = hadoop;
    this.counters = counters;
  }

  @Override
  public Iterator<RangeResult> call(Iterator<Assignment> tasks) throws Exception {
    List<Assignment> list = new ArrayList<>();
    tasks.forEachRemaining(list::add);
    if (list.stream().noneMatch(a -> a.upload() != null)) {
      return ConcurrentRanges.copy(list, settings.copy().threadsPerTask(), ExecutorContext.gate(settings), ExecutorContext.copier(settings),
          counters::moving, counters::add).iterator();
    }
    TaskContext task = TaskContext.get();
    try (Ledger.Writer writer = new Ledger(ledger, hadoop.value().value())
        .writer(LedgerFile.copying(settings.runId(), task.partitionId(), task.taskAttemptId()))) {
      return ConcurrentRanges.copy(list, settings.copy().threadsPerTask(), ExecutorContext.gate(settings), ExecutorContext.copier(settings),
          counters::moving, r -> {
        counters.add(r);
        if (r.status() == RangeResult.Status.OK && !r.uploadId().isEmpty()) {
          try {
            writer.copied(LedgerRecords.copied(r));
          } catch (IOException e) {
            throw new UncheckedIOException(e); // a part the ledger cannot hold would be copied again by a rerun: stop
          }
        }
      }).iterator();
    }
  }
}
