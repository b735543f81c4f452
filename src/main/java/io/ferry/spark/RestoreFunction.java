package io.ferry.spark;

import io.ferry.commit.ObjectResult;
import io.ferry.config.ArchivedConfig;
import io.ferry.ledger.Ledger;
import io.ferry.ledger.LedgerFile;
import io.ferry.plan.Decision;
import io.ferry.store.Restorer;
import io.ferry.store.StoreObject;
import io.ferry.store.retry.Failures;
import java.io.IOException;
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
 * RESTORE, on the executors: a RestoreObject for each archived object of a partition ({@code source.archived =
 * restore}), unless one is under way, as its HEAD showed, or the ledger holds one an earlier run sent for this
 * version that may not have expired (a store whose HEAD tells nothing of restores is not asked twice). Each request the
 * store accepted is recorded in the ledger before the next is sent.
 */
final class RestoreFunction implements FlatMapFunction<Iterator<Decision>, ObjectResult> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;
  private final String ledger;
  private final Broadcast<SerializableConfiguration> hadoop;
  private final Broadcast<Map<String, Ledger.Restore>> earlier;
  private final LongAccumulator requested;

  RestoreFunction(CopySettings settings, String ledger, Broadcast<SerializableConfiguration> hadoop,
      Broadcast<Map<String, Ledger.Restore>> earlier, LongAccumulator requested) {
    this.settings = settings;
    this.ledger = ledger;
    this.hadoop = hadoop;
    this.earlier = earlier;
    this.requested = requested;
  }

  @Override
  public Iterator<ObjectResult> call(Iterator<Decision> decisions) throws IOException {
    ArchivedConfig archived = settings.source().archived();
    Restorer restorer = ExecutorContext.source(settings).restorer().orElseThrow(() -> new IllegalStateException(
        "the source cannot restore objects: " + settings.source().describe()));
    List<ObjectResult> out = new ArrayList<>();
    Ledger.Writer writer = null;
    try {
      while (decisions.hasNext()) {
        Decision d = decisions.next();
        StoreObject o = d.object();
        long now = System.currentTimeMillis();
        Ledger.Restore sent = earlier.value().get(o.key());
        if (o.restoring()) {
          out.add(restoring(o, d.reason() + "; not copied yet: a rerun copies it once restored"));
        } else if (sent != null && sent.covers(o, now)) {
          out.add(restoring(o, d.reason() + "; a restore was requested by run " + sent.run() + " at "
              + Instant.ofEpochMilli(sent.requested()) + " (" + sent.tier() + "): none sent again, and a rerun copies it once restored"));
        } else {
          try {
            Restorer.Outcome outcome = restorer.restore(o, archived.tier(), archived.days());
            if (outcome == Restorer.Outcome.REQUESTED) {
              requested.add(1);
              if (writer == null) writer = writer();
              writer.restore(new Ledger.Restore(o.key(), o.size(), o.etag(), o.lastModifiedMillis(), archived.tier(), archived.days(), now,
                  now + Duration.ofDays(archived.days() + 1L).toMillis(), settings.runId()));
            }
            out.add(restoring(o, d.reason() + switch (outcome) {
              case REQUESTED -> "; restore requested (" + archived.tier() + ", " + archived.days()
                  + " days): a rerun copies it once restored";
              case UNDER_WAY -> "; the store has a restore of it under way: a rerun copies it once restored";
              case READABLE -> "; readable since the listing: a rerun copies it";
            }));
          } catch (IOException e) {
            out.add(ObjectResult.failed(o, "", 0, 0, "its restore could not be requested: " + Failures.describe(e)));
          }
        }
      }
    } finally {
      if (writer != null) writer.close();
    }
    return out.iterator();
  }

  private Ledger.Writer writer() throws IOException {
    TaskContext task = TaskContext.get();
    return new Ledger(ledger, hadoop.value().value()).writer(LedgerFile.restoring(settings.runId(), task.partitionId(),
        task.taskAttemptId()));
  }

  private static ObjectResult restoring(StoreObject o, String reason) {
    return new ObjectResult(o, "", 0, 0, ObjectResult.Status.RESTORING, reason, "", "");
  }
}
