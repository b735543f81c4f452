package io.ferry.spark;

import io.ferry.report.RunSummary;
import io.ferry.report.Units;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Formatter;
import java.util.Locale;
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
    return copying(live, c, totalBytes, totalRanges, interval, false, out);
  }

  /** @param always the final figures are printed even when no line was yet (copies made while listing are in them) */
  static Progress copying(Live live, CopyCounters c, long totalBytes, long totalRanges, Duration interval, boolean always,
      PrintStream out) {
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
    }, interval, out, always);
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
      this(line, interval, out, false);
    }

    /** @param always the close prints the final figures even when no line was printed yet */
    Progress(Supplier<String> line, Duration interval, PrintStream out, boolean always) {
      this.line = line;
      this.out = out;
      this.printed = always;
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
}
