package io.ferry.spark;

import io.ferry.commit.ObjectResult;
import io.ferry.ledger.Ledger;
import io.ferry.ledger.LedgerFile;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import io.ferry.store.VersionedWrites;
import java.io.IOException;
import java.util.Iterator;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.VoidFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * What a replay's generation records, on the executors, so that a rerun knows what it wrote by the source version it
 * came from: before its writes, each source version about to be written ({@link Ledger.Writing}); after its commit, the
 * id the destination gave each ({@link Ledger.Written}). The key's latest version is the one just written: the next
 * generation has not begun. A version whose id cannot be read is left unrecorded (its intent stands).
 */
public final class ReplayRecords {
  private ReplayRecords() {}

  /** Where a task of {@code step} writes its records (its attempt's id is the application's own: no other task's). */
  private static LedgerFile file(CopySettings settings, int step) {
    TaskContext task = TaskContext.get();
    return LedgerFile.writing(settings.runId(), (Math.floorMod(step, 2048) << 20) + task.partitionId(), task.taskAttemptId());
  }

  /** The source versions a generation is about to write. */
  public static final class Writing implements VoidFunction<Iterator<StoreObject>> {
    private static final long serialVersionUID = 1L;
    private final CopySettings settings;
    private final String ledger;
    private final Broadcast<SerializableConfiguration> hadoop;
    private final int step;

    public Writing(CopySettings settings, String ledger, Broadcast<SerializableConfiguration> hadoop, int step) {
      this.settings = settings;
      this.ledger = ledger;
      this.hadoop = hadoop;
      this.step = step;
    }

    @Override
    public void call(Iterator<StoreObject> versions) throws IOException {
      if (!versions.hasNext()) return;
      try (Ledger.Writer writer = new Ledger(ledger, hadoop.value().value()).writer(file(settings, step))) {
        while (versions.hasNext()) {
          StoreObject v = versions.next();
          writer.writing(new Ledger.Writing(v.relativeKey(), v.versionId(), settings.runId()));
        }
      }
    }
  }

  /** The versions a generation wrote, each by the id the destination gave it. */
  public static final class Written implements VoidFunction<Iterator<ObjectResult>> {
    private static final long serialVersionUID = 1L;
    private final CopySettings settings;
    private final String ledger;
    private final Broadcast<SerializableConfiguration> hadoop;
    private final int step;

    public Written(CopySettings settings, String ledger, Broadcast<SerializableConfiguration> hadoop, int step) {
      this.settings = settings;
      this.ledger = ledger;
      this.hadoop = hadoop;
      this.step = step;
    }

    @Override
    public void call(Iterator<ObjectResult> written) throws IOException {
      if (!written.hasNext()) return;
      VersionedWrites versions = ExecutorContext.destination(settings).versions().orElseThrow(() -> new StoreFailure(
          StoreFailure.Kind.FATAL, "the destination " + settings.destination().describe() + " keeps no versions"));
      var retrier = ExecutorContext.retrier(settings);
      try (Ledger.Writer writer = new Ledger(ledger, hadoop.value().value()).writer(file(settings, step))) {
        while (written.hasNext()) {
          ObjectResult o = written.next();
          String id;
          try {
            id = retrier.call(() -> versions.latestVersion(o.object()));
          } catch (IOException e) {
            continue;
          }
          if (!id.isEmpty()) writer.written(new Ledger.Written(o.object().relativeKey(), o.object().versionId(), id, settings.runId()));
        }
      }
    }
  }
}
