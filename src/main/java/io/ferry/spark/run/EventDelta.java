package io.ferry.spark.run;

import io.ferry.changes.ChangeEvents;
import io.ferry.changes.ChangeSet;
import io.ferry.changes.EventFeed;
import io.ferry.commit.ObjectResult;
import io.ferry.config.ChangesConfig;
import io.ferry.config.SourceConfig;
import io.ferry.ledger.DeltaState;
import io.ferry.plan.Decision;
import io.ferry.report.RunSummary;
import io.ferry.report.Units;
import io.ferry.spark.Actions;
import io.ferry.spark.ExecutorContext;
import io.ferry.spark.Held;
import io.ferry.spark.JobFailure;
import io.ferry.spark.LookupFunction;
import io.ferry.store.MessageQueue;
import io.ferry.store.retry.Failures;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.api.java.JavaRDD;

/**
 * A delta pass ({@code source.changes = events}): its events read on the driver before LIST, which then looks up only
 * the keys they name. After COMMIT and the cut-over each message is settled on its own: deleted when every key it names
 * ended as the job wants it (copied, unchanged, deleted, or left by the job's settings), handed back for the next pass
 * otherwise. What one run held and did not settle (it was killed) the next releases first, from the ledger.
 */
final class EventDelta implements Delta {
  /** A key written by its event that the source does not show is taken as written and then removed after this many receipts. */
  static final int RECEIPTS_BEFORE_ABSENT_IS_GONE = 3;

  private final boolean writes;
  private MessageQueue queue;
  private EventFeed.Read read;
  private Set<String> absent = Set.of();
  private long startedMillis;
  private long lastDrainedMillis;
  private Duration retention = Duration.ZERO;
  private boolean settled;

  /** @param writes false for a dry run: it reads the queue as a run would, then hands every message back */
  EventDelta(boolean writes) {
    this.writes = writes;
  }

  /** The events, read: from the queue (after releasing what an earlier run left held) or the files. */
  private ChangeSet read(RunContext run) throws JobFailure {
    SourceConfig source = run.config().source();
    startedMillis = System.currentTimeMillis();
    if (source.changes() instanceof ChangesConfig.Queue q) {
      read = fromQueue(run, source, q);
    } else {
      ChangesConfig.EventFiles files = (ChangesConfig.EventFiles) source.changes(); // an EventDelta reads events
      try {
        read = EventFeed.files(files, source);
      } catch (IOException e) {
        throw new JobFailure("cannot read the events in " + files.paths() + ": " + Failures.describe(e)
            + " (check ferry.source.events.files)");
      }
    }
    Console.printEvents(read, run.out());
    return read.changes();
  }

  @Override
  public JavaRDD<String> keys(RunContext run, Held cache) throws JobFailure {
    List<String> keys = read(run).keys();
    run.stages().lap("changes");
    return run.jsc().parallelize(keys, Delta.slices(run.jsc(), keys.size()));
  }

  @Override
  public double hoursSinceLast() {
    return lastDrainedMillis == 0 ? 0 : (startedMillis - lastDrainedMillis) / 3_600_000.0;
  }

  /** The keys looked up that the source does not hold: a key written by its event and not there yet waits. */
  @Override
  public void lookedUp(JavaRDD<LookupFunction.Found> found) throws JobFailure {
    absent = Set.copyOf(Actions.run(() -> found.filter(f -> f.source() == null).map(LookupFunction.Found::key).collect(),
        "cannot look up the changed keys", ""));
  }

  private EventFeed.Read fromQueue(RunContext run, SourceConfig source, ChangesConfig.Queue changes) throws JobFailure {
    String url = changes.url();
    try {
      queue = ExecutorContext.queue(changes, source);
      DeltaState before = DeltaState.read(run.ledger());
      lastDrainedMillis = before.drainedMillis();
      if (writes && !before.held().isEmpty()) releaseHeld(run, before);
      retention = queue.retention();
      EventFeed.Read got = EventFeed.queue(queue, changes, source);
      if (writes) new DeltaState(got.receipts(), before.drainedMillis()).write(run.ledger());
      warnOfLoss(run, before.drainedMillis());
      return got;
    } catch (IOException | RuntimeException e) {
      if (queue != null) queue.close();
      queue = null;
      throw new JobFailure("cannot read the queue " + url + ": " + Failures.describe(e)
          + " (check ferry.source.events.queue, and that the source's credentials may receive and delete its messages)");
    }
  }

  /** What an earlier run held and did not settle, visible again; the ledger forgets it whether or not the queue still held it. */
  private void releaseHeld(RunContext run, DeltaState before) throws IOException {
    try {
      queue.release(before.held());
      run.out().printf("EVENTS: released the %d messages an earlier run of the job held and did not settle%n", before.held().size());
    } catch (IOException e) {
      run.out().printf("EVENTS: the %d messages an earlier run held could not be released (%s): they return when their hold ends%n",
          before.held().size(), Failures.describe(e));
    }
    new DeltaState(List.of(), before.drainedMillis()).write(run.ledger());
  }

  /** Events older than the queue keeps may be gone: past the first pass, when the last drain began longer ago than that. */
  private void warnOfLoss(RunContext run, long drainedMillis) {
    if (drainedMillis == 0) {
      run.out().printf("EVENTS: the job's first delta pass: changes made before the queue received events%s are not in it; a full"
          + " pass (source.changes = listing) after the queue was set up covers them%n",
          retention.isZero() ? "" : ", or more than " + Units.duration(retention.toSeconds()) + " ago,");
    } else if (!retention.isZero() && startedMillis - drainedMillis > retention.toMillis()) {
      run.out().printf("EVENTS: events may have been lost: the last pass that drained the queue began %s ago, and the queue keeps a"
          + " message %s: run a full pass (source.changes = listing) to find what changed meanwhile%n",
          Units.duration((startedMillis - drainedMillis) / 1000.0), Units.duration(retention.toSeconds()));
    }
  }

  /**
   * The keys of this pass that did not end as the job wants them: failed, archived (failing, or still restoring), and,
   * where the cut-over did not delete cleanly, the extraneous ones. A rejected key, or one the job's settings leave,
   * never will: it is settled, and reported as the run reports it.
   */
  static Set<String> unsettled(Planned planned, Mode.Committed committed, RunSummary.Deletions deletions) {
    Set<String> keys = new HashSet<>(committed.objects().filter(r -> r.status() == ObjectResult.Status.FAILED)
        .map(r -> r.object().relativeKey()).collect());
    keys.addAll(planned.setAside().decisions().filter(d -> d.kind() == Decision.Kind.ARCHIVED).map(d -> d.object().relativeKey())
        .collect()); // a restore is pending while its row is among the restoring: one restored and copied in this run is settled
    keys.addAll(planned.setAside().restoring().map(r -> r.object().relativeKey()).collect());
    boolean cleanCutOver = deletions == null || deletions.outcome().equals("ran") && deletions.failed() == 0 && deletions.kept() == 0;
    if (!cleanCutOver) keys.addAll(planned.setAside().of(Decision.Kind.EXTRANEOUS).map(d -> d.object().relativeKey()).collect());
    return keys;
  }

  /** After COMMIT and the cut-over: each message deleted or handed back ({@link #unsettled}). */
  @Override
  public void settle(RunContext run, Planned planned, Mode.Committed committed, RunSummary.Deletions deletions) throws IOException {
    if (queue == null || read == null) return;
    Set<String> pending = unsettled(planned, committed, deletions);
    Set<String> unseen = new HashSet<>();
    read.changes().changes().forEach((key, change) -> {
      if (change.kind() == ChangeEvents.Kind.WRITTEN && absent.contains(key)) unseen.add(key);
    });
    List<String> delete = new ArrayList<>();
    List<String> back = new ArrayList<>(read.unreadableReceipts());
    List<String> aging = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (EventFeed.Received m : read.readable()) {
      boolean waits = m.keys().stream().anyMatch(k -> pending.contains(k)
          || unseen.contains(k) && m.receiveCount() < RECEIPTS_BEFORE_ABSENT_IS_GONE);
      (waits ? back : delete).add(m.receipt());
      if (waits && m.sentMillis() > 0 && !retention.isZero() && now - m.sentMillis() > retention.toMillis() / 2) {
        aging.addAll(m.keys());
      }
    }
    queue.delete(delete);
    queue.release(back);
    run.out().printf("EVENTS: deleted %d messages, what they name settled; handed %d back to the queue for the next pass%s%n",
        delete.size(), back.size(), back.size() == read.unreadableReceipts().size() ? "" : " (" + pending.size() + " keys failed,"
            + " archived or not deleted; " + unseen.size() + " written keys the source does not show yet)");
    if (!aging.isEmpty()) {
      // the queue drops a message a retention after it was sent, however often it was handed back
      run.out().printf("EVENTS: messages handed back were sent more than half the queue's retention (%s) ago, their keys still not"
          + " settled (%d, first %s): settle them, or run a full pass (source.changes = listing) once the queue has dropped them%n",
          Units.duration(retention.toSeconds()), aging.size(), aging.stream().sorted().findFirst().orElse(""));
    }
    long drained = read.drained() ? startedMillis : DeltaState.read(run.ledger()).drainedMillis();
    new DeltaState(List.of(), drained).write(run.ledger());
    settled = true;
  }

  @Override
  public void ended(RunContext run) {
    if (queue == null) return;
    try {
      if (!settled && read != null) {
        queue.release(read.receipts()); // a failed run, or a dry run: the next pass reads them again
        if (writes) new DeltaState(List.of(), DeltaState.read(run.ledger()).drainedMillis()).write(run.ledger());
      }
    } catch (IOException | RuntimeException e) {
      run.out().printf("EVENTS: the messages this run read could not be handed back (%s): they return when their hold ends%n",
          Failures.describe(e));
    } finally {
      queue.close();
    }
  }
}
