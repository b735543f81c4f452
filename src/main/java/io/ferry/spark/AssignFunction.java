package io.ferry.spark;

import io.ferry.copy.Assignment;
import io.ferry.copy.Opener;
import io.ferry.copy.RangeResult;
import io.ferry.ledger.Ledger;
import io.ferry.ledger.LedgerFile;
import io.ferry.ledger.LedgerRecords;
import io.ferry.ledger.Resumption;
import io.ferry.plan.CopyTask;
import io.ferry.plan.RangeTask;
import io.ferry.store.Destination;
import io.ferry.store.Upload;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.retry.Retrier;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * OPEN, on the executors: each object written in parts is opened where its first part is planned (its parts follow
 * it in the same partition), or an earlier run's upload of it is taken over ({@link Resumption}); a fresh opening is
 * recorded in the job's ledger at once, so that a rerun after a crash finds it, and so does this partition computed
 * again (its cached result lost with an executor): it takes the uploads its earlier attempts opened, so all parts of
 * an object go to one upload. Every task comes out assigned: whole
 * objects as they are, parts with their upload; parts an earlier run already copied come out as resumed ranges.
 */
public final class AssignFunction implements FlatMapFunction<Iterator<CopyTask>, AssignFunction.Assigned> {
  private static final long serialVersionUID = 1L;

  /**
   * One of: a task to copy; a range already copied by an earlier run; or an object opened (or taken over, or that
   * could not be opened), once per split object.
   */
  public record Assigned(Assignment assignment, RangeResult resumed, Opener.Outcome opened, boolean reused) implements Serializable {}

  private final CopySettings settings;
  private final String ledger;
  private final Broadcast<SerializableConfiguration> hadoop;
  private final Broadcast<Resumption> resumption;
  private final int generation;

  /**
   * @param generation of a replay's versions (0 otherwise): its ledger files are apart from other generations', so that
   *     a task computed again takes only the uploads of its own generation's earlier attempts
   */
  public AssignFunction(CopySettings settings, String ledger, Broadcast<SerializableConfiguration> hadoop, Broadcast<Resumption> resumption,
      int generation) {
    this.settings = settings;
    this.ledger = ledger;
    this.hadoop = hadoop;
    this.resumption = resumption;
    this.generation = generation;
  }

  @Override
  public Iterator<Assigned> call(Iterator<CopyTask> tasks) throws Exception {
    Destination destination = ExecutorContext.destination(settings);
    Retrier retrier = ExecutorContext.retrier(settings);
    Opener opening = new Opener(ExecutorContext.source(settings).reader(), destination, retrier);
    Resumption earlier = resumption.value();
    List<Assigned> out = new ArrayList<>();
    Ledger.Writer writer = null;
    Opener.Outcome current = null;
    Set<Integer> done = Set.of();
    TaskContext context = TaskContext.get();
    LedgerFile file = LedgerFile.opening(settings.runId(), (generation << 20) + context.partitionId(), context.taskAttemptId());
    Map<String, Ledger.Opened> before = new Ledger(ledger, hadoop.value().value()).read(file).opened();
    try {
      while (tasks.hasNext()) {
        CopyTask task = tasks.next();
        RangeTask first = task.ranges().get(0);
        if (first.wholeObject()) {
          out.add(new Assigned(Assignment.whole(task), null, null, false));
          continue;
        }
        if (first.partNumber() == 1) {
          Resumption.Resumed resumed = earlier.resume(first, destination, retrier);
          if (resumed != null) {
            current = resumed.opened();
            done = resumed.done();
            out.add(new Assigned(null, null, current, true));
            resumed.ranges().forEach(r -> out.add(new Assigned(null, r, null, false)));
          } else if (openedBefore(before, first).isPresent()) {
            Ledger.Opened entry = openedBefore(before, first).get();
            current = new Opener.Outcome(first.object(), new Upload(first.object(), entry.uploadId()),
                Checksum.parse(entry.expected()), "");
            done = Set.of();
            out.add(new Assigned(null, null, current, false));
          } else {
            if (writer == null) writer = new Ledger(ledger, hadoop.value().value()).writer(file);
            if (destination.capabilities().openSendsRequest()) {
              // recorded before the request: an upload this opening leaves, whatever happens to its answer, is found again
              writer.intent(new Ledger.Intent(first.object().key(), first.object().relativeKey(), destination.location(first.object()),
                  settings.runId()));
            }
            current = opening.open(first.object());
            done = Set.of();
            if (current.ok()) {
              writer.opened(LedgerRecords.opened(current, destination.location(first.object()), first.range().length(), first.partCount(),
                  settings.runId()));
            }
            out.add(new Assigned(null, null, current, false));
          }
        }
        if (current == null || !current.object().equals(first.object())) {
          throw new IllegalStateException("part " + first.partNumber() + " of " + first.object().key() + " came without its first part");
        }
        if (current.ok() && !done.contains(first.partNumber())) {
          out.add(new Assigned(Assignment.part(task, current.upload(), current.expected()), null, null, false));
        }
      }
    } finally {
      if (writer != null) writer.close();
    }
    return out.iterator();
  }

  /**
   * What an earlier attempt of this task opened for {@code first}'s object (not another version of its key: a replay
   * writes those apart).
   */
  private static Optional<Ledger.Opened> openedBefore(Map<String, Ledger.Opened> before, RangeTask first) {
    Ledger.Opened entry = before.get(first.object().relativeKey());
    return entry != null && LedgerRecords.object(entry).identity().equals(first.object().identity()) ? Optional.of(entry)
        : Optional.empty();
  }
}
