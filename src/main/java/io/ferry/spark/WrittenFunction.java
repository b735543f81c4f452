package io.ferry.spark;

import io.ferry.commit.ObjectResult;
import io.ferry.ledger.Ledger;
import io.ferry.ledger.LedgerFile;
import io.ferry.store.Destination;
import java.io.IOException;
import java.util.Iterator;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.VoidFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * A replay's generation recorded, on the executors: for each version it wrote (and each delete marker), the id the
 * destination gave it, beside the source version it copies ({@link Ledger.Written}), so that a rerun knows what it
 * wrote by where it came from. Runs before the next generation writes: the key's latest version is the one just
 * written. A version whose id cannot be read is left unrecorded (a rerun matches it by its bytes).
 */
final class WrittenFunction implements VoidFunction<Iterator<ObjectResult>> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;
  private final String ledger;
  private final Broadcast<SerializableConfiguration> hadoop;
  private final int generation;

  WrittenFunction(CopySettings settings, String ledger, Broadcast<SerializableConfiguration> hadoop, int generation) {
    this.settings = settings;
    this.ledger = ledger;
    this.hadoop = hadoop;
    this.generation = generation;
  }

  @Override
  public void call(Iterator<ObjectResult> written) throws IOException {
    if (!written.hasNext()) return;
    Destination destination = ExecutorContext.destination(settings);
    var retrier = ExecutorContext.retrier(settings);
    TaskContext task = TaskContext.get();
    LedgerFile file = LedgerFile.writing(settings.runId(), (generation << 20) + task.partitionId(), task.taskAttemptId());
    try (Ledger.Writer writer = new Ledger(ledger, hadoop.value().value()).writer(file)) {
      while (written.hasNext()) {
        ObjectResult o = written.next();
        String id;
        try {
          id = retrier.call(() -> destination.latestVersion(o.object()));
        } catch (IOException e) {
          continue;
        }
        if (!id.isEmpty()) writer.written(new Ledger.Written(o.object().relativeKey(), o.object().versionId(), id, settings.runId()));
      }
    }
  }
}
