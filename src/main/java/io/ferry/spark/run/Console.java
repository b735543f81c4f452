package io.ferry.spark.run;

import io.ferry.config.ArchivedConfig;
import io.ferry.config.ArchivedConfig.Policy;
import io.ferry.config.BucketConfig;
import io.ferry.config.CopyConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.copy.CopyMethod;
import io.ferry.ledger.Cleanup;
import io.ferry.ledger.Resumption;
import io.ferry.plan.CutOverPlan;
import io.ferry.plan.Decision;
import io.ferry.plan.Estimate;
import io.ferry.plan.PlanTotals;
import io.ferry.plan.Retrieval;
import io.ferry.report.RunFolder;
import io.ferry.report.RunSummary;
import io.ferry.report.Units;
import io.ferry.spark.CopyCounters;
import io.ferry.spark.CopySettings;
import io.ferry.spark.ExecutorContext;
import io.ferry.spark.Listing;
import io.ferry.spark.Live;
import io.ferry.store.checksums.Digests;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Serializable;
import java.time.Duration;
import java.util.Comparator;
import java.util.Formatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaSparkContext;

/** What the driver prints: a progress line while copying, and the run summary at the end. */
final class Console {
  private Console() {}

  /**
   * While copying: bytes done of the total, %, the rate since the last line and on average, ETA, ranges done,
   * retries and failed ranges, as the executors report them (with their heartbeats) while their tasks run; bytes
   * count from the first MiB of each range, not from when it finishes.
   */
  static Progress copying(Live live, CopyCounters c, long totalBytes, long totalRanges, Duration interval, PrintStream out) {
    long start = System.nanoTime();
    long[] last = {start, 0};
    return new Progress(() -> {
      long now = System.nanoTime();
      long bytes = Math.min(totalBytes, live.value(c.bytes) + live.value(c.moving));
      double seconds = (now - start) / 1e9;
      double current = (bytes - last[1]) / 1e6 / Math.max(1e-3, (now - last[0]) / 1e9);
      last[0] = now;
      last[1] = bytes;
      double average = bytes / 1e6 / Math.max(1e-3, seconds);
      String eta = bytes > 0 && totalBytes > bytes ? String.format(Locale.ROOT, "%.0f s", (totalBytes - bytes) / 1e6 / average) : "-";
      return String.format(Locale.ROOT,
          "COPY  %s of %s (%.0f%%), %.1f MB/s now, %.1f MB/s average, ETA %s; ranges %d of %d, %d retries, %d failed",
          Units.bytes(bytes), Units.bytes(totalBytes), totalBytes == 0 ? 100.0 : 100.0 * bytes / totalBytes, current, average, eta,
          live.value(c.ranges), totalRanges, live.value(c.retries), live.value(c.failures));
    }, interval, out);
  }

  /** While listing: the objects and bytes found so far. */
  static Progress listing(Live live, Listing.Counters c, Duration interval, PrintStream out) {
    long start = System.nanoTime();
    return new Progress(() -> String.format(Locale.ROOT, "LIST  %d objects (%s) found in %.0f s%s", live.value(c.selected),
        Units.bytes(live.value(c.bytes)), (System.nanoTime() - start) / 1e9, c.shards.get() == 0 ? "" : "; " + c.shards.get() + " shards"),
        interval, out);
  }

  /**
   * A line printed every {@code interval} until closed: on a terminal, one line refreshed in place; otherwise a line
   * each time, for logs. Once a line has been printed, the close prints the final figures too.
   */
  static final class Progress implements AutoCloseable {
    private final Thread thread;
    private final boolean terminal = System.console() != null;
    private final Supplier<String> line;
    private final PrintStream out;
    private volatile boolean printed;

    Progress(Supplier<String> line, Duration interval, PrintStream out) {
      this.line = line;
      this.out = out;
      thread = new Thread(() -> {
        try {
          while (true) {
            Thread.sleep(interval.toMillis());
            print();
          }
        } catch (InterruptedException e) {
          // closed
        }
      }, "ferry-progress");
      thread.setDaemon(true);
      thread.start();
    }

    private void print() {
      String text = line.get();
      if (terminal) {
        out.print("\r" + text + "\u001b[K");
        out.flush();
      } else {
        out.println(text);
      }
      printed = true;
    }

    @Override
    public void close() {
      thread.interrupt();
      try {
        thread.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (!printed) return;
      print();
      if (terminal) out.println();
    }
  }

  /**
   * Prints the summary in one write, so that log lines other threads write to a shared stream (Spark's, on a
   * cluster's driver) cannot land in the middle of a line.
   */
  static void printSummary(RunSummary s, PrintStream stream) {
    Formatter out = new Formatter(new StringBuilder(), Locale.ROOT);
    out.format("%n");
    out.format("Ferry run %s (job %s) %s in %.1f s%n", s.run(), s.job(),
        s.succeeded() ? "finished" : "finished WITH FAILURES", s.wallSeconds());
    out.format("  source       %s%n", s.source());
    out.format("  destination  %s%n", s.destination());
    out.format("  objects      %d copied, %d skipped unchanged, %d failed (of %d listed)%s%n", s.objects().copied(),
        s.objects().skippedUnchanged(), s.objects().failed(), s.objects().listed(), s.objects().notCopied() == 0 ? ""
        : "; " + s.objects().notCopied() + " not copied by the job's settings (rows NOT_COPIED in the objects dataset: symbolic links,"
        + " archived objects skipped)");
    if (s.objects().carriedInPart() > 0) {
      out.format("  carried      %d copied without some of what the source tells of them (the objects dataset's not_carried"
          + " column says what and why)%n", s.objects().carriedInPart());
    }
    if (s.objects().archived() > 0) {
      out.format("  archived     %d archived at the source and not copied: %d restoring (a rerun copies them once restored), %d"
          + " skipped or failed (source.archived)%n", s.objects().archived(), s.objects().restoring(),
          s.objects().archived() - s.objects().restoring());
    }
    out.format("  bytes        %s copied in %.1f s of copying: %.1f MB/s aggregate%s%n", Units.bytes(s.bytes().copied()),
        s.throughput().copyStageSeconds(), s.throughput().aggregateMBps(),
        s.bytes().throughExecutors() == s.bytes().copied() ? "" : "; " + Units.bytes(s.bytes().throughExecutors()) + " through executors");
    out.format("  ranges       %d (%d objects split), %d retries; range MB/s p50 %.1f, p90 %.1f, p99 %.1f%s%n",
        s.ranges().total(), s.ranges().splitObjects(), s.ranges().retries(), s.throughput().rangeP50MBps(),
        s.throughput().rangeP90MBps(), s.throughput().rangeP99MBps(), s.bytes().throughExecutors() == 0 ? ""
            : String.format(Locale.ROOT, "; first byte p50 %.1f ms", s.throughput().firstByteP50Ms()));
    if (s.streams() != null && !s.streams().isEmpty()) {
      StringBuilder tuned = new StringBuilder();
      for (RunSummary.Streams e : s.streams()) {
        tuned.append(tuned.length() == 0 ? "" : "; ").append(String.format(Locale.ROOT,
            "executor %s %d at the start, %d at the end (%d-%d)", e.executor(), e.first(), e.last(), e.least(), e.most()));
      }
      out.format("  streams      tuned (copy.streams-per-task = auto; the ranges dataset's streams column): %s%n", tuned);
    }
    StringBuilder verified = new StringBuilder();
    s.verification().forEach((how, count) -> verified.append(verified.length() == 0 ? "" : ", ").append(count).append(" ").append(how));
    if (verified.length() > 0) out.format("  verified     %s%n", verified);
    StringBuilder stages = new StringBuilder();
    s.stageSeconds().forEach((stage, seconds) -> stages.append(stages.length() == 0 ? "" : ", ")
        .append(String.format(Locale.ROOT, "%s %.1f s", stage, seconds)));
    out.format("  stages       %s%n", stages);
    if (s.verdict() != null) out.format("  verdict      %s%n", s.verdict().line());
    out.format("  report       %s/report.html (datasets: ranges, objects, partitions as Parquet and CSV; summary.json)%n",
        s.reportPath());
    if (!s.failures().isEmpty()) {
      out.format("  failed objects (first %d):%n", s.failures().size());
      for (RunSummary.Failure f : s.failures()) out.format("    %s: %s%n", f.key(), f.error());
    }
    stream.print(out);
    stream.flush();
  }

  /** The plan, once it is made: what was listed and decided, what is copied and how, and what the modes add. */
  static void printPlan(RunContext run, Planned planned, Modes modes) throws IOException {
    PrintStream out = run.out();
    PlanTotals plan = planned.totals();
    long missing = planned.setAside().missingCount();
    out.printf("LIST  %d objects listed, %d selected, %d skipped unchanged, %d rejected%s%s%s%n", planned.notes().listing().listed(),
        planned.notes().listing().selected() - plan.filtered(), plan.unchanged(), plan.rejected(),
        plan.notCopied() == 0 ? "" : ", " + plan.notCopied() + " symbolic links not copied",
        plan.archived() == 0 ? "" : ", " + plan.archived() + " archived at the source",
        missing == 0 ? "" : ", " + missing + " named by the manifest and missing at the source");
    out.printf("PLAN  %d objects, %s in %d ranges (%d objects split), %d tasks; method %s%n", plan.objects(),
        Units.bytes(plan.bytes()), plan.ranges(), plan.splitObjects(), plan.tasks(), MigrationJob.methodName(run.method()));
    modes.replay().ifPresent(r -> out.println(r.line(planned)));
    planned.notes().partSize().ifPresent(line -> out.println("PART SIZE " + line));
    autoStreams(run.config().copy()).ifPresent(line -> out.println("STREAMS " + line));
    if (!Digests.fallback().isEmpty()) out.println("DIGESTS the JDK's on the driver: " + Digests.fallback());
    modes.planned(run, planned).forEach(out::println);
  }

  /** What {@code copy.streams-per-task = auto} starts with and how it goes on. */
  static Optional<String> autoStreams(CopyConfig copy) {
    if (!copy.autoStreams()) return Optional.empty();
    int slots = ExecutorContext.slots();
    return Optional.of(String.format(Locale.ROOT, "auto: each executor starts at %d streams per task slot (%d with %d slots), then"
        + " keeps the count past which its aggregate rate stops rising, between %d and %d per slot", copy.streamsPerTask(),
        copy.streamsPerTask() * slots, slots, CopyConfig.AUTO_MIN, copy.maxStreamsPerTask()));
  }

  /**
   * The dry run's plan: what a run would copy, set aside and delete, the requests it would send, what they cost and
   * how long the copy takes.
   */
  static void printDryPlan(RunContext run, Planned planned, Modes modes) throws IOException {
    MigrationConfig config = run.config();
    CopyMethod method = run.method();
    CopySettings settings = run.settings();
    PrintStream out = run.out();
    PlanTotals plan = planned.totals();
    out.printf("Plan for %s: %s -> %s%n", config.jobName(), config.source().describe(), config.destination().describe());
    out.printf("  objects   %d to copy (%d split into ranges), %d skipped unchanged, %d rejected, %d left out by size or time,"
        + " %d listed%s%n", plan.objects(), plan.splitObjects(), plan.unchanged(), plan.rejected(), plan.filtered(),
        planned.notes().listing().listed(), planned.setAside().missingCount() == 0 ? ""
        : ", " + planned.setAside().missingCount() + " missing at the source");
    out.printf("  bytes     %s (%d)%n", Units.bytes(plan.bytes()), plan.bytes());
    out.printf("  ranges    %d in %d tasks; method %s%n", plan.ranges(), plan.tasks(), MigrationJob.methodName(method));
    modes.replay().ifPresent(r -> out.println("  " + r.line(planned).toLowerCase(Locale.ROOT).replaceFirst("versions ", "versions  ")));
    planned.notes().partSize().ifPresent(line -> out.printf("  part size %s%n", line));
    autoStreams(config.copy()).ifPresent(line -> out.printf("  streams   %s%n", line));
    printEstimate(config, run.jsc(), method, plan, planned, out);
    out.printf("  listed    in %s%n", planned.notes().listedIn());
    List<Decision> rejected = planned.setAside().of(Decision.Kind.REJECTED).takeOrdered(SAMPLE, new ByKey());
    rejected.forEach(r -> out.printf("  rejected  %s: %s%n", r.object().key(), r.reason()));
    if (plan.rejected() > rejected.size()) out.printf("  rejected  ... and %d more%n", plan.rejected() - rejected.size());
    if (plan.notCopied() > 0) out.printf("  not copied %d symbolic links (source.symlinks)%n", plan.notCopied());
    if (plan.extraneous() > 0) {
      var cutOver = config.destination().cutOver();
      out.printf("  extraneous %d objects (%s) at the destination, in the selection, that the source's listing lacks%s%n",
          plan.extraneous(), Units.bytes(plan.extraneousBytes()), cutOver.enabled() ? ""
              : ": kept (destination.delete-extraneous is off)");
      if (cutOver.enabled()) {
        // as a run that copies everything it selects would decide
        CutOverPlan decision = CutOverPlan.decide(cutOver, plan.extraneous(), plan.objects() + plan.unchanged(), 0, plan.rejected(),
            plan.notCopied(), plan.archived());
        String verb = cutOver.moves() ? "would move to " + cutOver.moveTo() : "would delete";
        if (decision.outcome() == CutOverPlan.Outcome.RUN) {
          out.printf("  cut-over  %d of the %d objects the destination holds in the selection once the run copied (cap"
              + " destination.max-delete = %s), each looked up at the source first and kept if it holds it%n", plan.extraneous(),
              plan.objects() + plan.unchanged() + plan.extraneous(), cutOver.cap());
          List<Decision> sample = planned.setAside().of(Decision.Kind.EXTRANEOUS).takeOrdered(SAMPLE, new ByKey());
          sample.forEach(d -> out.printf("  %s %s (%s)%n", verb, ExecutorContext.destination(settings).location(d.object()),
              Units.bytes(d.object().size())));
          if (plan.extraneous() > sample.size()) out.printf("  %s ... and %d more%n", verb, plan.extraneous() - sample.size());
        } else {
          out.printf("  cut-over  %s: %s%n", decision.outcome() == CutOverPlan.Outcome.SKIPPED ? "would be skipped" : "would be refused",
              decision.reason());
        }
      }
    }
  }

  /** The requests by side and kind, the bytes leaving the source, what they cost at the configured prices, and how long the copy takes. */
  private static void printEstimate(MigrationConfig config, JavaSparkContext jsc, CopyMethod method, PlanTotals plan,
      Planned planned, PrintStream out) throws IOException {
    boolean fromBucket = config.source().store() instanceof BucketConfig;
    Estimate.Route route = switch (method) {
      case SERVER_SIDE_COPY -> Estimate.Route.SERVER_SIDE;
      case STREAM_TO_FILE -> fromBucket ? Estimate.Route.BUCKET_TO_FILE : Estimate.Route.FILE_TO_FILE;
      case STREAM_TO_BUCKET -> fromBucket ? Estimate.Route.BUCKET_TO_BUCKET : Estimate.Route.FILE_TO_BUCKET;
    };
    long checked = !config.source().manifest().isEmpty() && config.source().checkManifest() ? planned.notes().listing().listed() : 0;
    Estimate e = Estimate.of(plan, route, planned.notes().listing().pages(), planned.notes().existing().pages(), checked);
    String source = fromBucket
        ? String.format(Locale.ROOT, "source: %d LIST pages, %d HEAD%s", e.sourceList(), e.sourceHead(),
            method == CopyMethod.SERVER_SIDE_COPY ? "" : ", " + e.get() + " GET")
        : "source: " + plan.gets() + " file reads";
    String destination = switch (route) {
      case BUCKET_TO_BUCKET, FILE_TO_BUCKET -> String.format(Locale.ROOT,
          "destination: %d LIST pages, %d PutObject, %d UploadPart, %d CreateMultipartUpload + CompleteMultipartUpload",
          e.destinationList(), e.put(), e.uploadPart(), e.create());
      case SERVER_SIDE -> String.format(Locale.ROOT, "destination: %d LIST pages, %d CopyObject, %d UploadPartCopy, "
          + "%d CreateMultipartUpload + CompleteMultipartUpload (no bytes through Spark)", e.destinationList(), e.copyObject(),
          e.uploadPartCopy(), e.create());
      case BUCKET_TO_FILE, FILE_TO_FILE -> "destination: file writes";
    };
    out.printf("  requests  %s; %s%n", source, destination);
    if (plan.archived() > 0) printArchived(config.source().archived(), plan, out);
    double sourceCost = e.sourceCost(config.estimate().source()), destinationCost = e.destinationCost(config.estimate().destination());
    boolean payer = config.source().store() instanceof BucketConfig b && b.endpoint().requesterPays();
    out.printf(Locale.ROOT, "  cost      $%.2f: source $%.2f (%s leaving it%s), destination $%.2f, at the estimate.* prices%n",
        sourceCost + destinationCost, sourceCost, Units.bytes(e.egressBytes()), payer ? "; Requester Pays: billed to you, not to the"
        + " bucket's owner" : "", destinationCost);
    double rate = config.estimate().expectedMBps();
    String basis = "estimate.mb-per-s";
    if (rate == 0) {
      RunFolder.Rate last = RunFolder.lastRate(jsc.hadoopConfiguration(), config.reportPath(), config.jobName());
      if (last != null) {
        rate = last.megabytesPerSecond();
        basis = "the aggregate of run " + last.run();
      }
    }
    if (rate > 0) {
      out.printf(Locale.ROOT, "  time      %s to copy at %.1f MB/s (%s)%n", Units.duration(plan.bytes() / 1e6 / rate), rate, basis);
    } else {
      out.printf("  time      unknown until a run of this job has copied, or estimate.mb-per-s is set%n");
    }
  }

  /** The archived objects, what {@code source.archived} does with them, and what restoring them costs and takes. */
  private static void printArchived(ArchivedConfig archived, PlanTotals plan, PrintStream out) {
    String what = switch (archived.policy()) {
      case FAIL -> "each a failure of the run, no request sent (source.archived = fail; restore restores them, skip leaves them)";
      case SKIP -> "each left and reported (source.archived = skip)";
      case RESTORE -> plan.restores() + " restores to request, " + (plan.archived() - plan.restores()) + " under way";
    };
    out.printf("  archived  %d objects archived at the source (each asked a HEAD by the listing): %s%n", plan.archived(), what);
    if (archived.policy() == Policy.RESTORE && plan.restores() > 0) {
      Retrieval r = Retrieval.of(archived.tier());
      out.printf(Locale.ROOT, "  restore   %d RestoreObject, %s (%s, %d days): $%.2f at AWS Glacier Flexible Retrieval's list prices"
          + " ($%.2f per 1,000 requests, $%.4f per GB); ready in %s; a rerun copies them once restored%n", plan.restores(),
          Units.bytes(plan.restoreBytes()), r.tier(), archived.days(), r.cost(plan.restores(), plan.restoreBytes()), r.perThousand(),
          r.perGB(), r.waits());
    }
  }

  /** Lines of a kind that {@code plan} prints at most. */
  private static final int SAMPLE = 20;

  /** Decisions in key order (serializable, for takeOrdered). */
  static final class ByKey implements Comparator<Decision>, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(Decision a, Decision b) {
      return a.object().key().compareTo(b.object().key());
    }
  }


  /** What aborting earlier runs' uploads did: each failure, then how many were aborted (none: no line). */
  static void printAborted(PrintStream out, Resumption.Aborted aborted, String what) {
    aborted.failures().forEach(f -> out.printf("ABORT of %s failed: %s%n", f.what(), f.why()));
    if (aborted.aborted() > 0) out.printf("ABORT %d %s%n", aborted.aborted(), what);
  }

  /** One thing {@code ferry cleanup} found, as it deals with it. */
  static void printCleanup(Cleanup.Event e, boolean dryRun, PrintStream out) {
    switch (e.action()) {
      case KEEP -> out.printf("  keep   %s (%s)%n", e.location(), e.why());
      case ABORT -> out.printf("  %s  %s (%s)%n", dryRun ? "would abort" : "abort", e.location(), e.why());
      case REMOVE -> out.printf("  %s  %s (%s)%n", dryRun ? "would remove" : "remove", e.location(), e.why());
      case FAILED -> out.printf("    failed: %s%n", e.why());
    }
  }
}
