package io.ferry.report;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Why a run was as fast as it was: the resource that limited it, the evidence, and the setting that would help (or
 * that none would). A pure function of what the datasets hold ({@link Evidence}), so {@code ferry report} gives an
 * older run the same answer.
 *
 * @param limit what limited the run, in a few words
 * @param evidence the figures that show it
 * @param advice what to change, or why nothing would help
 */
public record Verdict(String limit, String evidence, String advice) {

  /**
   * What a verdict is drawn from.
   *
   * @param stageSeconds the run's stages (as the summary's)
   * @param copySeconds the copy stage's wall time
   * @param streamSeconds the ranges' own durations, summed: the time streams were busy
   * @param firstByteSeconds of that, the time spent waiting for a first byte
   * @param peakStreams the most streams busy at once (averaged over one bucket of the timeline): what the job had
   * @param tailShare the share of the copy stage during which fewer than half the peak streams were busy
   * @param slowestSeconds the slowest range's duration
   * @param firstByteP50Ms the median time to first byte
   * @param limitMBps {@code limits.bandwidth} in MB/s, 0 for none (or not known: an older run)
   * @param methods how the ranges travelled (the ranges dataset's {@code method}s): the advice names only settings that act
   *     on them
   */
  public record Evidence(double wallSeconds, Map<String, Double> stageSeconds, double copySeconds, long bytes, long ranges, long retries,
      double streamSeconds, double firstByteSeconds, double peakStreams, double tailShare, double slowestSeconds, double firstByteP50Ms,
      double limitMBps, Set<String> methods) {
    public Evidence {
      methods = Set.copyOf(methods);
    }

    /** Objects copied inside the service: up to plan.copy-cutoff each is one CopyObject, whatever plan.part-size is. */
    boolean inService() {
      return methods.contains(SERVER_SIDE);
    }

    /** Bytes carried by the executors (any other method, or none known: an older run's). */
    boolean carried() {
      return methods.isEmpty() || methods.stream().anyMatch(m -> !m.equals(SERVER_SIDE));
    }

    /** Objects written into files (a directory destination): "+write" methods. */
    boolean intoFiles() {
      return methods.stream().anyMatch(m -> m.endsWith("+write"));
    }
  }

  private static final String SERVER_SIDE = "server-side-copy";

  /** Stages other than the copy, by what would shorten them. */
  private static final Map<String, String> STAGE_ADVICE = Map.ofEntries(
      Map.entry("spark", "Spark's start is paid once per run: a longer job, or a cluster already running, spreads it"),
      Map.entry("preflight", "the checks before anything starts"),
      Map.entry("list", "listing: source.manifest (an S3 Inventory report) lists without LIST requests, and source.prefixes"
          + " narrows what is listed"),
      Map.entry("plan", "planning (the listings joined by key, each key decided, the tasks cut), which grows with the objects"
          + " listed: source.prefixes narrows them"),
      // runs older than the split of the two
      Map.entry("list+plan", "listing and planning: source.manifest (an S3 Inventory report) lists without LIST requests, and"
          + " source.prefixes narrows what is listed"),
      Map.entry("open", "opening multipart uploads: a larger plan.part-size opens fewer"),
      Map.entry("report", "writing the report's datasets"),
      Map.entry("delete", "the cut-over pass (a lookup at the source for each object it deletes)"),
      Map.entry("restore", "requesting restores of archived objects"));

  public static Verdict of(Evidence e) {
    if (e.ranges() == 0 || e.bytes() == 0) {
      return new Verdict("nothing to copy", "no byte was copied", "none: the run's time is its fixed cost (listing, Spark's start)");
    }
    double aggregate = e.copySeconds() > 0 ? e.bytes() / 1e6 / e.copySeconds() : 0;
    double copyShare = e.wallSeconds() > 0 ? e.copySeconds() / e.wallSeconds() : 1;
    if (copyShare < 0.4) {
      Map.Entry<String, Double> largest = e.stageSeconds().entrySet().stream().filter(s -> !s.getKey().equals("copy"))
          .max(Map.Entry.comparingByValue()).orElse(null);
      if (largest != null && largest.getValue() > e.copySeconds()) {
        return new Verdict("the " + largest.getKey() + " stage", f("it took %.1f s of the run's %.1f s (%.0f%%); the copy %.1f s",
            largest.getValue(), e.wallSeconds(), 100 * largest.getValue() / e.wallSeconds(), e.copySeconds()),
            largest.getKey().equals("commit") ? commitAdvice(e)
            : STAGE_ADVICE.getOrDefault(largest.getKey(), "the " + largest.getKey() + " stage"));
      }
    }
    if (e.limitMBps() > 0 && aggregate >= 0.85 * e.limitMBps()) {
      return new Verdict("limits.bandwidth", f("the copy ran at %.1f MB/s against a limit of %.1f MB/s", aggregate, e.limitMBps()),
          "raise or remove limits.bandwidth, if the links may carry more");
    }
    if (e.retries() > 0 && e.retries() >= 0.05 * e.ranges()) {
      return new Verdict("throttling and retries", f("%d retries over %d ranges (%.0f%%)", e.retries(), e.ranges(),
          100.0 * e.retries() / e.ranges()), "the stores refused or dropped requests: limits.requests-per-second, or fewer"
          + " copy.streams-per-task, asks less of them");
    }
    double busy = e.copySeconds() > 0 && e.peakStreams() > 0 ? e.streamSeconds() / (e.copySeconds() * e.peakStreams()) : 1;
    if (e.tailShare() >= 0.3) {
      return new Verdict("stragglers", f("for %.0f%% of the copy fewer than half the %.0f streams were busy; the slowest range took"
          + " %.1f s of the copy's %.1f s", 100 * e.tailShare(), e.peakStreams(), e.slowestSeconds(), e.copySeconds()),
          smallerParts(e, "spreads each large object over more streams"));
    }
    if (busy < 0.5) {
      return new Verdict("idle streams", f("the streams were busy %.0f%% of the copy: %d ranges for %.0f streams at once", 100 * busy,
          e.ranges(), e.peakStreams()), "more ranges per stream: " + smallerParts(e, "") + ", or more objects per run");
    }
    double waiting = e.streamSeconds() > 0 ? e.firstByteSeconds() / e.streamSeconds() : 0;
    double perStream = e.streamSeconds() > 0 ? e.bytes() / 1e6 / e.streamSeconds() : 0;
    if (waiting >= 0.5) {
      return new Verdict("request latency", f("waiting for a first byte took %.0f%% of the streams' time (p50 %.0f ms) for ranges of"
          + " %s on average", 100 * waiting, e.firstByteP50Ms(), Units.bytes(e.bytes() / e.ranges())),
          "more copy.streams-per-task overlap more requests");
    }
    return new Verdict("per-stream rate", f("%.0f streams averaged %.1f MB/s each (first byte p50 %.0f ms): %.1f MB/s in all",
        e.peakStreams(), perStream, e.firstByteP50Ms(), aggregate), "more copy.streams-per-task, if the links and the stores have"
        + " room: these figures cannot tell whether one of them is full");
  }

  /**
   * The setting that cuts large objects into more ranges for the job's method: plan.part-size where the executors carry
   * the bytes; plan.copy-cutoff inside one service, below which an object is one CopyObject.
   */
  private static String smallerParts(Evidence e, String what) {
    String tail = what.isEmpty() ? "" : " " + what;
    if (!e.inService()) return "a smaller plan.part-size" + tail;
    String cutoff = "a smaller plan.copy-cutoff (objects above it are copied in parts of plan.part-size)" + tail;
    return e.carried() ? cutoff + "; where the executors carry the bytes, a smaller plan.part-size" : cutoff;
  }

  /** The commit's cost: files are fsynced and renamed; uploads completed. */
  private static String commitAdvice(Evidence e) {
    if (e.intoFiles()) {
      return "the commit (each file fsynced and renamed): a filesystem whose fsync is a round trip (NFS) pays it per file";
    }
    return "the commit (each upload completed, each object checked): more objects per part, a larger plan.part-size, completes"
        + " fewer";
  }

  /** One line: "limit: evidence; advice". */
  public String line() {
    return limit + ": " + evidence + "; " + advice;
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
