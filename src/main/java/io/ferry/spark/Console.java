package io.ferry.spark;

import io.ferry.copy.Progress;
import io.ferry.report.RunSummary;
import io.ferry.report.Units;
import java.io.PrintStream;
import java.util.Locale;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.JavaSparkContext;

/** What the driver prints: a progress line while copying, and the run summary at the end. */
final class Console {
  private Console() {}

  /** Prints tasks done, % of bytes (by finished tasks' share), MB/s and ETA every few seconds until closed. */
  static Progress progress(JavaSparkContext jsc, String group, long totalBytes, PrintStream out) {
    long start = System.nanoTime();
    return new Progress(() -> {
      int[] tasks = tasks(jsc, group);
      if (tasks[1] == 0) return null;
      double seconds = (System.nanoTime() - start) / 1e9;
      double fraction = tasks[0] / (double) tasks[1];
      double rate = totalBytes * fraction / 1e6 / seconds;
      String eta = fraction > 0 ? String.format(Locale.ROOT, "%.0fs", seconds / fraction - seconds) : "?";
      return String.format(Locale.ROOT, "%s  %d/%d tasks (%.0f%% of %s), %.1f MB/s, ETA %s", group, tasks[0], tasks[1],
          fraction * 100, Units.bytes(totalBytes), rate, eta);
    }, out);
  }

  /** Prints the objects and bytes a listing has found so far (as its tasks finish) every few seconds until closed. */
  static Progress listing(JavaSparkContext jsc, String group, Listing.Counters counters, PrintStream out) {
    return new Progress(() -> {
      int[] tasks = tasks(jsc, group);
      return tasks[1] == 0 ? null : String.format(Locale.ROOT, "%s  %d objects (%s) found, %d/%d tasks", group,
          counters.selected.value(), Units.bytes(counters.bytes.value()), tasks[0], tasks[1]);
    }, out);
  }

  /** Tasks completed and in all, over the stages of the group's jobs. */
  private static int[] tasks(JavaSparkContext jsc, String group) {
    int done = 0, total = 0;
    for (int job : jsc.statusTracker().getJobIdsForGroup(group)) {
      var info = jsc.statusTracker().getJobInfo(job);
      if (info == null) continue;
      for (int stage : info.stageIds()) {
        SparkStageInfo s = jsc.statusTracker().getStageInfo(stage);
        if (s != null) {
          done += s.numCompletedTasks();
          total += s.numTasks();
        }
      }
    }
    return new int[] {done, total};
  }

  /** A line printed every few seconds (when there is one) until closed. */
  static final class Progress implements AutoCloseable {
    private final Thread thread;

    Progress(java.util.function.Supplier<String> line, PrintStream out) {
      thread = new Thread(() -> {
        try {
          while (true) {
            Thread.sleep(5000);
            String text = line.get();
            if (text != null) out.println(text);
          }
        } catch (InterruptedException e) {
          // closed
        }
      }, "ferry-progress");
      thread.setDaemon(true);
      thread.start();
    }

    @Override
    public void close() {
      thread.interrupt();
    }
  }

  /**
   * Prints the summary in one write, so that log lines other threads write to a shared stream (Spark's, on a
   * cluster's driver) cannot land in the middle of a line.
   */
  static void printSummary(RunSummary s, PrintStream stream) {
    java.util.Formatter out = new java.util.Formatter(new StringBuilder(), Locale.ROOT);
    out.format("%n");
    out.format("Ferry run %s (job %s) %s in %.1f s%n", s.run(), s.job(),
        s.succeeded() ? "finished" : "finished WITH FAILURES", s.wallSeconds());
    out.format("  source       %s%n", s.source());
    out.format("  destination  %s%n", s.destination());
    out.format("  objects      %d copied, %d skipped unchanged, %d failed (of %d listed)%n", s.objects().copied(),
        s.objects().skippedUnchanged(), s.objects().failed(), s.objects().listed());
    out.format("  bytes        %s copied in %.1f s of copying: %.1f MB/s aggregate%s%n", Units.bytes(s.bytes().copied()),
        s.throughput().copyStageSeconds(), s.throughput().aggregateMBps(),
        s.bytes().throughExecutors() == s.bytes().copied() ? "" : "; " + Units.bytes(s.bytes().throughExecutors()) + " through executors");
    out.format("  ranges       %d (%d objects split), %d retries; range MB/s p50 %.1f, p90 %.1f, p99 %.1f%s%n",
        s.ranges().total(), s.ranges().splitObjects(), s.ranges().retries(), s.throughput().rangeP50MBps(),
        s.throughput().rangeP90MBps(), s.throughput().rangeP99MBps(), s.bytes().throughExecutors() == 0 ? ""
            : String.format(Locale.ROOT, "; first byte p50 %.1f ms", s.throughput().firstByteP50Ms()));
    StringBuilder verified = new StringBuilder();
    s.verification().forEach((how, count) -> verified.append(verified.length() == 0 ? "" : ", ").append(count).append(" ").append(how));
    if (verified.length() > 0) out.format("  verified     %s%n", verified);
    StringBuilder stages = new StringBuilder();
    s.stageSeconds().forEach((stage, seconds) -> stages.append(stages.length() == 0 ? "" : ", ")
        .append(String.format(Locale.ROOT, "%s %.1f s", stage, seconds)));
    out.format("  stages       %s%n", stages);
    out.format("  report       %s/report.html (datasets: ranges.parquet, ranges.csv, objects.parquet, objects.csv, summary.json)%n",
        s.reportPath());
    if (!s.failures().isEmpty()) {
      out.format("  failed objects (first %d):%n", s.failures().size());
      for (RunSummary.Failure f : s.failures()) out.format("    %s: %s%n", f.key(), f.error());
    }
    stream.print(out);
    stream.flush();
  }
}
