package io.ferry.report;

/** One executor's share of a run: its ranges, bytes, busy time and host, the streams it allowed, its bytes over time. */
public final class ExecutorStats implements Mergeable<ExecutorStats> {
  private static final long serialVersionUID = 1L;
  String host = "";
  long ranges;
  long bytes;
  long busyNanos;
  // the streams it allowed: at its first and last range's start, and the fewest and most (0: none recorded)
  long firstStart = Long.MAX_VALUE;
  int firstStreams;
  long lastStart = Long.MIN_VALUE;
  int lastStreams;
  int leastStreams;
  int mostStreams;
  /** Its bytes per bucket of the copy stage, as the run's timeline. */
  final Buckets timeline;

  ExecutorStats(Buckets timeline) {
    this.timeline = timeline;
  }

  void streams(long startedAt, int streams, int least, int most) {
    if (streams <= 0) return;
    if (startedAt < firstStart) {
      firstStart = startedAt;
      firstStreams = streams;
    }
    if (startedAt >= lastStart) {
      lastStart = startedAt;
      lastStreams = streams;
    }
    leastStreams = leastStreams == 0 ? least : Math.min(leastStreams, least);
    mostStreams = Math.max(mostStreams, most);
  }

  @Override
  public void merge(ExecutorStats y) {
    ranges += y.ranges;
    bytes += y.bytes;
    busyNanos += y.busyNanos;
    host = host.isEmpty() ? y.host : host;
    streams(y.firstStart, y.firstStreams, y.leastStreams, y.mostStreams);
    streams(y.lastStart, y.lastStreams, y.leastStreams, y.mostStreams);
    timeline.merge(y.timeline);
  }
}
