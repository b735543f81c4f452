package io.ferry.spark;

import io.ferry.commit.ObjectResult;
import io.ferry.config.MigrationConfig;
import io.ferry.ledger.Resumption;
import io.ferry.plan.CopyTask;
import io.ferry.plan.PlanTotals;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * COPY while the listing goes on ({@code plan.copy-while-listing}): each round's tasks the plan hands over are opened,
 * copied and committed on a driver thread of their own, one round after another, while the driver lists on. Its
 * jobs run in a scheduler pool of their own, so that under Spark's fair scheduler the listing and the copies share
 * the executors. Whatever it takes it copies, or the run fails.
 */
final class EarlyCopies implements Planning.Early, AutoCloseable {
  /** The Spark scheduler pool of the early copies' jobs. */
  static final String POOL = "ferry-early";

  /** What the early copies did: their ranges and committed objects (null for none), and counts for the console. */
  record Done(MigrationJob.Copied copied, JavaRDD<ObjectResult> objects, int rounds, long objectsCopied, long bytes, long failed) {
    static final Done NONE = new Done(null, null, 0, 0, 0, 0);

    Done and(Done o) {
      if (o.copied == null) return new Done(copied, objects, rounds + o.rounds, objectsCopied, bytes, failed);
      if (copied == null) return new Done(o.copied, o.objects, rounds + o.rounds, o.objectsCopied, o.bytes, o.failed);
      return new Done(copied.and(o.copied), objects.union(o.objects), rounds + o.rounds, objectsCopied + o.objectsCopied, bytes + o.bytes,
          failed + o.failed);
    }
  }

  private final JavaSparkContext jsc;
  private final MigrationConfig config;
  private final CopySettings settings;
  private final String ledger;
  private final Broadcast<SerializableConfiguration> hadoop;
  private final Broadcast<Resumption> earlier;
  private final MigrationJob.Held held;
  private final PrintStream out;
  private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "ferry-early-copies");
    t.setDaemon(true);
    return t;
  });
  private final List<Future<Done>> rounds = new ArrayList<>();
  /** No more rounds are taken. */
  private boolean taking = true;
  /** Rounds not started are skipped: the run is failing. */
  private volatile boolean cancelled;
  /** The early copies' counters, which the run's own copy counts on from. */
  private final CopyCounters counters;

  EarlyCopies(JavaSparkContext jsc, MigrationConfig config, CopySettings settings, String ledger,
      Broadcast<SerializableConfiguration> hadoop, Broadcast<Resumption> earlier, MigrationJob.Held held, PrintStream out) {
    this.jsc = jsc;
    this.config = config;
    this.settings = settings;
    this.ledger = ledger;
    this.hadoop = hadoop;
    this.earlier = earlier;
    this.held = held;
    this.out = out;
    this.counters = new CopyCounters(jsc);
  }

  CopyCounters counters() {
    return counters;
  }

  @Override
  public synchronized void copy(JavaRDD<CopyTask> tasks, int generation, PlanTotals totals) {
    if (!taking) throw new IllegalStateException("the early copies were finished: no more rounds are taken");
    rounds.add(thread.submit(() -> {
      if (cancelled) throw new IllegalStateException("skipped: the run failed before this round's early copy began");
      try {
        return round(tasks, generation, totals);
      } catch (IOException | RuntimeException e) {
        cancelled = true; // the run fails: the rounds after this one are not begun
        throw e;
      }
    }));
  }

  /** OPEN, COPY and COMMIT of one round's tasks: its objects are committed (or aborted) before the next round starts. */
  private Done round(JavaRDD<CopyTask> tasks, int generation, PlanTotals totals) throws IOException {
    jsc.setLocalProperty("spark.scheduler.pool", POOL);
    if (totals.objects() == 0) return new Done(null, null, 1, 0, 0, 0);
    MigrationJob.OpenResult open = MigrationJob.open(jsc, settings, tasks, totals.splitObjects(), ledger, hadoop, earlier, held, generation,
        out);
    boolean committed = false;
    try {
      // checkpointed, as a replay's generations are: a round is never copied or committed again once later ones ran (an
      // executor lost after it would otherwise recompute its results, writing its objects' temp files anew)
      MigrationJob.Copied copied = MigrationJob.copy(jsc, config, settings, totals, open, ledger, hadoop, held, true, counters, null);
      // a group of its own: the run's own groups (LIST, COPY, ...) are the main thread's
      jsc.setJobGroup("EARLY", "EARLY: COMMIT of round " + generation, true);
      JavaRDD<ObjectResult> objects = held.persist(MigrationJob.commit(copied.ranges(), totals.splitObjects(), totals.objects(),
          settings));
      objects.checkpoint();
      long failed = objects.filter(o -> o.status() == ObjectResult.Status.FAILED).count();
      committed = true;
      return new Done(copied, objects, 1, totals.objects(), totals.bytes(), failed);
    } finally {
      if (!committed) MigrationJob.printKept(open, config.jobName(), out);
    }
  }

  /** Waits for every round taken; throws the first failure (the run fails: what it took is not copied by the plan). */
  Done finish() throws IOException, JobFailure {
    List<Future<Done>> taken;
    synchronized (this) {
      taking = false;
      taken = List.copyOf(rounds);
    }
    Done done = Done.NONE;
    for (Future<Done> f : taken) {
      try {
        done = done.and(f.get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for the copies made while listing");
      } catch (ExecutionException e) {
        if (e.getCause() instanceof JobFailure j) throw j;
        if (e.getCause() instanceof IOException io) throw io;
        if (e.getCause() instanceof RuntimeException r) throw r;
        throw new IllegalStateException(e.getCause());
      }
    }
    return done;
  }

  /**
   * Takes no more rounds, skips those not started, and waits for the one under way to commit: a run that fails
   * meanwhile leaves no object half copied by it.
   */
  @Override
  public void close() {
    synchronized (this) {
      taking = false;
      cancelled = true;
    }
    thread.shutdown();
    boolean interrupted = false;
    // a round's copy can take long: it is waited for, as the run's own copy would be, even when interrupted, since its
    // listings and broadcasts are dropped once this returns
    while (!thread.isTerminated()) {
      try {
        thread.awaitTermination(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
  }
}
