package io.ferry.spark.run;

import io.ferry.changes.ChangeSet;
import io.ferry.changes.EventFeed;
import io.ferry.commit.Deletion;
import io.ferry.config.CopyConfig;
import io.ferry.ledger.Cleanup;
import io.ferry.ledger.Resumption;
import io.ferry.plan.PlanTotals;
import io.ferry.report.RunSummary;
import io.ferry.report.Units;
import io.ferry.report.VerifySummary;
import io.ferry.spark.CopyCounters;
import io.ferry.spark.ExecutorContext;
import io.ferry.spark.Listing;
import io.ferry.spark.Live;
import io.ferry.store.checksums.Digests;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Formatter;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

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
    if (s.convergence() != null) out.format("  convergence  %s%n", s.convergence().line());
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

  /** A delta pass's events, as read: how many, which keys they leave to look up, and what was left aside. */
  static void printEvents(EventFeed.Read read, PrintStream out) {
    ChangeSet c = read.changes();
    out.printf("EVENTS %d %s, %d changes: %d keys to look up (%d last removed)%s%s%s%s%n", read.messages(),
        read.counted(), c.read(), c.changes().size(), c.removed(),
        c.superseded() == 0 ? "" : ", " + c.superseded() + " superseded by a later change of their key",
        c.elsewhere() + c.unselected() == 0 ? "" : ", " + (c.elsewhere() + c.unselected()) + " outside the job's selection",
        read.drained() ? "" : "; the pass took source.events.max-messages, the rest wait for the next",
        read.unreadable() == 0 ? "" : "; " + read.unreadable() + " not S3 event notifications, left where they are (first: "
            + read.firstUnreadable() + ")");
  }

  /** What {@code copy.streams-per-task = auto} starts with and how it goes on. */
  static Optional<String> autoStreams(CopyConfig copy) {
    if (!copy.autoStreams()) return Optional.empty();
    int slots = ExecutorContext.slots();
    return Optional.of(String.format(Locale.ROOT, "auto: each executor starts at %d streams per task slot (%d with %d slots), then"
        + " keeps the count past which its aggregate rate stops rising, between %d and %d per slot", copy.streamsPerTask(),
        copy.streamsPerTask() * slots, slots, CopyConfig.AUTO_MIN, copy.maxStreamsPerTask()));
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

  /** What the cut-over pass did, and where each object's outcome is written when some were kept or failed. */
  static void printDeleted(PrintStream out, Map<Deletion.Status, Long> by, String done, String runDirectory) {
    out.printf("DELETE %d extraneous objects %s at the destination%s%s%n", by.get(Deletion.Status.DELETED) + by.get(Deletion.Status.MOVED),
        done, by.get(Deletion.Status.KEPT) == 0 ? "" : "; " + by.get(Deletion.Status.KEPT) + " kept: the source holds them (or could"
            + " not be asked)",
        by.get(Deletion.Status.FAILED) == 0 ? "" : "; " + by.get(Deletion.Status.FAILED) + " could not be (a rerun tries again)");
    if (by.get(Deletion.Status.KEPT) + by.get(Deletion.Status.FAILED) > 0) {
      out.printf("       each object's outcome: the deletions dataset of this run's report (%s)%n", runDirectory);
    }
  }

  /** What {@code ferry verify} found: whether the destination matches, the count of each outcome, the differences. */
  static void printVerified(VerifySummary summary, PrintStream out) {
    StringBuilder text = new StringBuilder();
    VerifySummary.Manifest manifest = summary.manifest();
    String verdict = manifest == null ? summary.matches() ? "the destination matches the source" : "DIFFERENCES FOUND"
        : summary.proven() ? "PROVEN: every source object equal by a checksum of each side"
        : summary.listed().sourceObjects() == 0 ? "NOT PROVEN: the source lists no object (check source.bucket, its prefix and the"
        + " selection)" : "NOT PROVEN";
    text.append(String.format(Locale.ROOT, "%nFerry verify %s (job %s): %s in %.1f s%n", summary.run(), summary.job(), verdict,
        summary.wallSeconds()));
    summary.objects().forEach((status, count) -> text.append(String.format(Locale.ROOT, "  %-16s %d%n", status.toLowerCase(Locale.ROOT),
        count)));
    text.append(String.format(Locale.ROOT, "  read             %s on both sides%n", Units.bytes(summary.bytesRead())));
    VerifySummary.Sides listed = summary.listed();
    text.append(String.format(Locale.ROOT, "  listed           %d objects (%s) at the source, %d (%s) at the destination%s%n",
        listed.sourceObjects(), Units.bytes(listed.sourceBytes()), listed.destinationObjects(), Units.bytes(listed.destinationBytes()),
        summary.reconciled() ? ", each in one row" : unreconciled(listed, summary.compared())));
    for (VerifySummary.Difference d : summary.differences()) {
      text.append(String.format("  %s %s %s%n", d.status(), d.key(), d.detail()));
    }
    if (manifest != null) {
      text.append(String.format(Locale.ROOT, "  manifest         %s: %d rows, %d of %d source objects proven%s%n", manifest.path(),
          manifest.rows(), manifest.proven(), listed.sourceObjects(), manifest.duplicateKeys() == 0 ? ""
          : "; " + manifest.duplicateKeys() + " ROWS REPEAT A KEY"));
      text.append(String.format("  sha256           %s (of manifest.csv/part-*.csv concatenated)%n", manifest.sha256()));
    }
    String datasets = manifest != null ? "manifest.parquet, manifest.csv" : "verify.parquet, verify.csv";
    text.append(String.format("  report           %s (datasets: %s, summary.json)%n", summary.reportPath(), datasets));
    out.print(text);
  }

  /** What the rows miss of the listings: objects of one side under one relative key, all but one left without a row. */
  private static String unreconciled(VerifySummary.Sides listed, VerifySummary.Sides rows) {
    return String.format(Locale.ROOT, "; NOT RECONCILED: %d source and %d destination objects share their key with another of their"
        + " side and have no row of their own", listed.sourceObjects() - rows.sourceObjects(),
        listed.destinationObjects() - rows.destinationObjects());
  }
}
