package io.ferry.spark;

import io.ferry.commit.ObjectResult;
import io.ferry.config.ArchivedConfig;
import io.ferry.ledger.Ledger;
import io.ferry.ledger.LedgerFile;
import io.ferry.plan.Decision;
import io.ferry.plan.Retrieval;
import io.ferry.store.Restorer;
import io.ferry.store.StoreObject;
import io.ferry.store.retry.Failures;
import java.io.IOException;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;
import org.apache.spark.util.SerializableConfiguration;

/**
 * RESTORE, on the executors, before the copy is planned: for each archived object of a partition ({@code
 * source.archived = restore}) a RestoreObject, unless its HEAD showed one under way or the ledger holds one an earlier
 * run sent for this version that may not have expired. Each request the store accepted is recorded in the ledger
 * before the next is sent. An object found readable (the store answered that it is restored, or, where its HEAD
 * tells nothing of restores, its first byte could be read) is copied by this run; the others are RESTORING rows.
 */
public final class RestoreFunction implements FlatMapFunction<Iterator<Decision>, RestoreFunction.Restored> {
  private static final long serialVersionUID = 1L;

  /** What became of one archived object: a row ({@code result}), or the object to copy now ({@code readable}). */
  public record Restored(ObjectResult result, StoreObject readable) implements Serializable {}

  /** What the step needs of the run: the ledger, and the restores earlier runs requested. */
  public record Context(String ledger, Broadcast<SerializableConfiguration> hadoop, Broadcast<Map<String, Ledger.Restore>> earlier,
      LongAccumulator requested) implements Serializable {}

  private final CopySettings settings;
  private final Context context;

  public RestoreFunction(CopySettings settings, Context context) {
    this.settings = settings;
    this.context = context;
  }

  @Override
  public Iterator<Restored> call(Iterator<Decision> decisions) throws IOException {
    ArchivedConfig archived = settings.source().archived();
    Restorer restorer = ExecutorContext.source(settings).restorer().orElseThrow(() -> new IllegalStateException(
        "the source cannot restore objects: " + settings.source().describe()));
    List<Restored> out = new ArrayList<>();
    Ledger.Writer writer = null;
    try {
      while (decisions.hasNext()) {
        Decision d = decisions.next();
        StoreObject o = d.object();
        long now = System.currentTimeMillis();
        Ledger.Restore sent = context.earlier().value().get(o.key());
        try {
          if (o.restoring()) {
            out.add(restoring(o, d.reason() + "; not copied yet: a rerun copies it once restored"));
          } else if (sent != null && sent.covers(o, now)) {
            // requested, and the HEAD shows no restore: a store that does not tell of them, so the first byte asks
            out.add(restorer.readable(o) ? readable(o) : restoring(o, d.reason() + "; a restore was requested by run " + sent.run()
                + " at " + Instant.ofEpochMilli(sent.requested()) + " (" + sent.tier() + "), and the object cannot be read yet: none"
                + " sent again, and a rerun copies it once restored"));
          } else {
            Restorer.Outcome outcome = restorer.restore(o, archived.tier(), archived.days());
            if (outcome == Restorer.Outcome.REQUESTED) {
              context.requested().add(1);
              if (writer == null) writer = writer();
              writer.restore(new Ledger.Restore(o.key(), o.size(), o.etag(), o.lastModifiedMillis(), archived.tier(), archived.days(), now,
                  now + Duration.ofDays(archived.days()).plus(Retrieval.of(archived.tier()).longest()).toMillis(), settings.runId()));
            }
            out.add(switch (outcome) {
              case REQUESTED -> restoring(o, d.reason() + "; restore requested (" + archived.tier() + ", " + archived.days()
                  + " days): a rerun copies it once restored");
              case UNDER_WAY -> restoring(o, d.reason() + "; the store has a restore of it under way: a rerun copies it once restored");
              case READABLE -> readable(o);
            });
          }
        } catch (IOException e) {
          out.add(new Restored(ObjectResult.failed(o, "", 0, 0, "its restore could not be requested: " + Failures.describe(e)), null));
        }
      }
    } finally {
      if (writer != null) writer.close();
    }
    return out.iterator();
  }

  private Ledger.Writer writer() throws IOException {
    TaskContext task = TaskContext.get();
    return new Ledger(context.ledger(), context.hadoop().value().value()).writer(LedgerFile.restoring(settings.runId(),
        task.partitionId(), task.taskAttemptId()));
  }

  private static Restored restoring(StoreObject o, String reason) {
    return new Restored(ObjectResult.row(o, "", ObjectResult.Status.RESTORING, reason, ""), null);
  }

  /** The object as a readable one is listed: copied by this run. */
  private static Restored readable(StoreObject o) {
    return new Restored(null, new StoreObject(o.key(), o.relativeKey(), o.size(), o.etag(), o.lastModifiedMillis()));
  }
}
