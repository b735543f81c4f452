package io.ferry.spark.run;

import io.ferry.changes.ChangeSet;
import io.ferry.changes.EventFeed;
import io.ferry.config.SourceConfig;
import io.ferry.ledger.Ledger;
import io.ferry.report.RunSummary;
import io.ferry.report.Units;
import io.ferry.spark.ExecutorContext;
import io.ferry.spark.JobFailure;
import io.ferry.store.MessageQueue;
import io.ferry.store.retry.Failures;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * A delta pass ({@code source.changes = events}): its events read on the driver before LIST, which then looks up only
 * the keys they name; the queue's messages deleted once the pass committed everything and its cut-over (if any) ran,
 * released for the next pass otherwise. What one run held and did not settle (it was killed) the next releases first,
 * from the ledger.
 */
final class EventDelta implements Mode {
  private final boolean writes;
  private MessageQueue queue;
  private EventFeed.Read read;
  private long startedMillis;
  private boolean settled;

  /** @param writes false for a dry run: it reads the queue as a run would, then hands every message back */
  EventDelta(boolean writes) {
    this.writes = writes;
  }

  /** The events, read: from the queue (after releasing what an earlier run left held) or the files. */
  ChangeSet read(RunContext run) throws JobFailure {
    SourceConfig source = run.config().source();
    startedMillis = System.currentTimeMillis();
    if (source.changes().queue().isEmpty()) {
      try {
        read = EventFeed.files(source);
      } catch (IOException e) {
        throw new JobFailure("cannot read the events in " + source.changes().files() + ": " + Failures.describe(e)
            + " (check ferry.source.events.files)");
      }
    } else {
      read = fromQueue(run, source);
    }
    Console.printEvents(read, run.out());
    return read.changes();
  }

  private EventFeed.Read fromQueue(RunContext run, SourceConfig source) throws JobFailure {
    String url = source.changes().queue();
    try {
      queue = ExecutorContext.queue(source);
      Ledger.Events before = run.ledger().events();
      if (writes && !before.held().isEmpty()) {
        queue.release(before.held());
        run.out().printf("EVENTS: released the %d messages an earlier run of the job held and did not settle%n", before.held().size());
      }
      Duration retention = queue.retention();
      EventFeed.Read got = EventFeed.queue(queue, source);
      if (writes) run.ledger().events(new Ledger.Events(got.receipts(), before.drainedMillis()));
      warnOfLoss(run, before.drainedMillis(), retention);
      return got;
    } catch (IOException | RuntimeException e) {
      if (queue != null) queue.close();
      queue = null;
      throw new JobFailure("cannot read the queue " + url + ": " + Failures.describe(e)
          + " (check ferry.source.events.queue, and that the source's credentials may receive and delete its messages)");
    }
  }

  /** Events older than the queue keeps may be gone: past the first pass, when the last drain began longer ago than that. */
  private void warnOfLoss(RunContext run, long drainedMillis, Duration retention) {
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
   * After COMMIT and the cut-over: a pass that failed no object and whose cut-over (where the job has one) was not held
   * back deletes its messages; any other hands them back for the next pass.
   */
  void settle(RunContext run, long failed, RunSummary.Deletions deletions) throws IOException {
    if (queue == null || read == null) return;
    boolean done = failed == 0 && (deletions == null || deletions.outcome().equals("ran") || deletions.outcome().equals("none"));
    List<String> receipts = read.receipts();
    if (done) {
      queue.delete(receipts);
      run.out().printf("EVENTS: deleted the %d messages read, what they name committed%n", receipts.size());
    } else {
      queue.release(receipts);
      run.out().printf("EVENTS: handed the %d messages read back to the queue, for the next pass: %s%n", receipts.size(),
          failed > 0 ? failed + " objects failed" : "the cut-over did not run");
    }
    long drained = done && read.drained() ? startedMillis : run.ledger().events().drainedMillis();
    run.ledger().events(new Ledger.Events(List.of(), drained));
    settled = true;
  }

  @Override
  public void ended(RunContext run) throws IOException {
    if (queue == null) return;
    try {
      if (!settled && read != null) {
        queue.release(read.receipts()); // a failed run, or a dry run: the next pass reads them again
        if (writes) run.ledger().events(new Ledger.Events(List.of(), run.ledger().events().drainedMillis()));
      }
    } finally {
      queue.close();
    }
  }
}
