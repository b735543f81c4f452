package io.ferry.spark.run;

import io.ferry.config.BucketConfig;
import io.ferry.config.DirectoryConfig;
import io.ferry.config.LimitsConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.config.Overlaps;
import io.ferry.copy.CopyMethod;
import io.ferry.ledger.Ledger;
import io.ferry.ledger.LedgerRecords;
import io.ferry.ledger.RunLock;
import io.ferry.plan.CopyPlanner;
import io.ferry.report.RunSummary;
import io.ferry.report.StageTimes;
import io.ferry.spark.CopyCounters;
import io.ferry.spark.CopySettings;
import io.ferry.spark.ExecutorContext;
import io.ferry.spark.FerryPlugin;
import io.ferry.spark.JobFailure;
import io.ferry.store.file.FileStore;
import io.ferry.store.file.KeyPaths;
import io.ferry.store.retry.Failures;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The driver: config → LIST → PLAN → OPEN (objects written in parts) → COPY (executors) → COMMIT (executors) → REPORT.
 * Every step's logic lives in Spark-free packages; this class only wires them into Spark jobs.
 */
public final class MigrationJob {
  private static final DateTimeFormatter RUN_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private MigrationJob() {}

  public static String newRunId(Instant now) {
    return RUN_TIME.format(now) + "-" + String.format("%04x", ThreadLocalRandom.current().nextInt(0x10000));
  }

  /** A run on a Spark context that is already up (the demo, tests). */
  public static RunSummary run(MigrationConfig config, JavaSparkContext jsc, PrintStream out) throws JobFailure, IOException {
    return run(config, CompletableFuture.completedFuture(jsc), out);
  }

  /**
   * A run on a Spark context that may still be starting: the preflight runs meanwhile; the stage "spark" is what is
   * left of its start after it (and, on a cluster, the shared-directory check, which needs the executors).
   */
  public static RunSummary run(MigrationConfig asked, Future<JavaSparkContext> spark, PrintStream out) throws JobFailure, IOException {
    Instant started = Instant.now();
    String runId = newRunId(started);
    Overlaps.recheck(asked); // links may have changed since the job file was read: before anything is written
    MigrationConfig config = settledWrites(asked, out);
    CopySettings settings = new CopySettings(config.source(), config.destination(), config.jobName(), runId, config.copy());
    StageTimes stages = new StageTimes();
    Path marker = preflight(settings, runId);
    stages.lap("preflight");
    try {
      out.printf("Ferry %s run %s: %s -> %s%n", config.jobName(), runId, config.source().describe(), config.destination().describe());
      JavaSparkContext jsc = started(spark);
      if (marker != null) checkShared(marker, jsc);
      stages.lap("spark");
      Ledger ledger = RunContext.ledger(config, jsc.hadoopConfiguration());
      try (RunLock lock = lock(ledger, jsc.hadoopConfiguration(), config.jobName(), runId);
          RunContext run = RunContext.of(config, settings, jsc, RunContext.Lock.of(lock), stages, started, out)) {
        FerryPlugin.limit(config.limits());
        if (config.limits().fixed()) FerryPlugin.awaitShares(jsc.sc(), 3_000);
        return stages(run);
      }
    } finally {
      FerryPlugin.limit(LimitsConfig.NONE);
      if (marker != null) Files.deleteIfExists(marker);
    }
  }

  /** The job's run lock, or the failure that another run holds it. */
  static RunLock lock(Ledger ledger, Configuration hadoop, String job, String runId) throws JobFailure, IOException {
    try {
      return RunLock.take(ledger.directory(), hadoop, job, runId);
    } catch (RunLock.Taken e) {
      throw new JobFailure(e.getMessage());
    }
  }

  /** The run's stages, in order, over its context. */
  private static RunSummary stages(RunContext run) throws JobFailure, IOException {
    Modes modes = Modes.of(run);
    try (Planned planned = Planning.plan(run, modes)) {
      run.stages().lap("plan");
      Console.printPlan(run, planned, modes);
      List<Ledger.Opened> stillOpen = TakeOverStage.run(run, planned);
      modes.writing(run, planned.plan().tasks(), 0);
      OpenStage.Opened open = OpenStage.run(run, planned.plan().tasks(), planned.totals().splitObjects(), 0);
      if (planned.totals().splitObjects() > 0) run.stages().lap("open");
      Mode.Committed committed;
      CommitStage.Failed failed;
      boolean done = false;
      try {
        CopyStage.Copied copied = CopyStage.run(run, planned.totals(), open, modes.keepsCopies(), new CopyCounters(run.jsc()));
        run.stages().lap("copy");
        committed = modes.committed(run, planned, new Mode.Committed(copied, CommitStage.run(run, copied, planned.totals(),
            "check, then complete or abort each object")));
        failed = CommitStage.Failed.of(committed.objects()); // the commit's first action: it runs here
        done = true;
      } finally {
        if (!done) OpenStage.printKept(run, open); // what it opened stays, for a rerun to resume
      }
      run.stillHeld("its cut-over pass and its ledger's cleanup");
      CommitStage.keepOpenOnly(run, failed.inParts(), stillOpen);
      run.stages().lap("commit");
      RunSummary.Deletions deletions = CutOverStage.run(run, planned, failed.count());
      if (modes.delta().isPresent()) {
        modes.delta().get().settle(run, planned, committed, deletions);
      } else {
        InventoryDelta.fullPassSettled(run, planned, committed, deletions);
      }
      RunSummary summary = ReportStage.run(run, planned, committed, deletions, modes.delta().map(d -> d.delta(run,
          planned.notes().listing().listed())).orElse(null));
      Console.printSummary(summary, run.out());
      return summary;
    } finally {
      modes.ended(run);
    }
  }

  /**
   * The objects earlier runs left open at this destination, by relative key, with their part size: under
   * {@code plan.part-size = auto} they keep it, so that they resume in their own parts whatever auto chooses now.
   */
  static Map<String, CopyPlanner.OpenedBefore> openedBefore(RunContext run) {
    Map<String, CopyPlanner.OpenedBefore> kept = new HashMap<>();
    for (Ledger.Opened o : run.resumption().value().here().values()) {
      kept.put(o.relativeKey(), new CopyPlanner.OpenedBefore(LedgerRecords.object(o), o.partSize()));
    }
    return kept;
  }

  static String methodName(CopyMethod method) {
    return method.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  static JavaSparkContext started(Future<JavaSparkContext> spark) throws IOException {
    try {
      return spark.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while Spark was starting");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) throw r;
      throw new IllegalStateException("Spark did not start: " + e.getCause().getMessage(), e.getCause());
    }
  }

  /**
   * A directory destination must exist (or be creatable) and be writable; a marker file is left in it for
   * {@link #checkShared}. A bucket must answer HEAD.
   */
  private static Path preflight(CopySettings settings, String runId) throws JobFailure {
    if (settings.destination().store() instanceof BucketConfig bucket) {
      try {
        ExecutorContext.store(bucket, settings).check();
      } catch (IOException e) {
        throw new JobFailure("the destination bucket " + bucket.describe() + " cannot be used: " + Failures.describe(e)
            + " (check ferry.destination.bucket, endpoint and credentials)");
      }
      return null;
    }
    Path root = Path.of(((DirectoryConfig) settings.destination().store()).path());
    try {
      Files.createDirectories(root);
    } catch (IOException e) {
      throw new JobFailure("ferry.destination.path = " + root + " cannot be created: " + Failures.describe(e));
    }
    Path marker = root.resolve(KeyPaths.markerName(settings.job()));
    try {
      Files.writeString(marker, runId);
    } catch (IOException e) {
      throw new JobFailure("ferry.destination.path = " + root + " is not writable: " + Failures.describe(e));
    }
    return marker;
  }

  /**
   * Direct I/O asked of a directory whose filesystem refuses it (tmpfs): the run writes through the page cache, and its
   * header and summary say so.
   */
  private static MigrationConfig settledWrites(MigrationConfig config, PrintStream out) {
    if (!(config.destination().store() instanceof DirectoryConfig d) || d.writes() != DirectoryConfig.Writes.DIRECT) return config;
    try {
      Files.createDirectories(Path.of(d.path())); // else the preflight says why not
    } catch (IOException e) {
      return config;
    }
    return FileStore.directIoRefusal(d, config.jobName()).map(why -> {
      out.printf("ferry.destination.direct-io = true: %s refuses O_DIRECT (%s): writing through the page cache%n", d.path(), why);
      return config.withDestination(config.destination().withStore(d.withWrites(DirectoryConfig.Writes.DIRECT_REFUSED)));
    }).orElse(config);
  }

  /** On a cluster, a directory destination must be the same shared directory on every executor: the marker shows. */
  private static void checkShared(Path marker, JavaSparkContext jsc) throws JobFailure {
    if (jsc.isLocal()) return; // local mode: the executors are this JVM, which just wrote the marker
    String markerPath = marker.toString();
    int probes = Math.max(1, jsc.defaultParallelism());
    jsc.setJobGroup("PREFLIGHT", "PREFLIGHT: is the destination shared with every executor?", true);
    List<String> blind = jsc.parallelize(IntStream.range(0, probes).boxed().toList(), probes)
        .filter(i -> !Files.exists(Path.of(markerPath)))
        .map(i -> InetAddress.getLocalHost().getHostName())
        .distinct()
        .collect();
    if (!blind.isEmpty()) {
      throw new JobFailure("ferry.destination.path = " + marker.getParent() + " is not visible from executors on " + blind
          + ": on a cluster the destination must be a shared mount (NFS, a shared volume) at the same path on every node");
    }
  }
}
