package io.ferry.report;

import io.ferry.commit.ObjectResult;
import io.ferry.copy.RangeResult;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Everything the summary and the HTML report need, gathered in one pass over the results on the cluster (one Spark
 * job for ranges, one for objects, instead of a job per statistic). Mergeable: {@link #add} per row on the
 * executors, {@link #merge} across partitions. Bounded: percentiles and the histogram come from a bottom-k sample
 * of at most {@link #SAMPLE} ranges (exact below that), the timeline has a fixed number of buckets.
 */
public final class RunStats implements Serializable {
  private static final long serialVersionUID = 1L;
  static final int SAMPLE = 8192;
  static final int SLOWEST = 5;
  static final int FAILURES = 20;

  /** One sampled range: its sample key (a hash), MB/s and time to first byte (ms, NaN when none). */
  record Sampled(long sampleKey, double mbps, double firstByteMs) implements Serializable {}

  /** Per executor: ranges, bytes, busy time, host. */
  static final class ExecutorStats implements Serializable {
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
    double[] timeline; // its bytes per bucket of the copy stage, as the run's timeline (null until it moved any)

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
  }

  // ranges
  long ranges;
  long rangesOk;
  long retries;
  long bytes;
  long payloadBytes;
  double maxMbps;
  final TreeMap<String, Long> requestsByMethod = new TreeMap<>();
  final TreeMap<String, ExecutorStats> executors = new TreeMap<>();
  final List<Sampled> sample = new ArrayList<>();
  final List<RangeResult> slowest = new ArrayList<>();
  // timeline: bytes per bucket of the copy stage, each range's bytes spread evenly over its duration
  final long timelineStartMillis;
  final long bucketMillis;
  final double[] timeline;
  // the streams' time: their ranges' durations summed, the first bytes' waits summed, and stream-milliseconds per bucket
  long streamNanos;
  long firstByteNanos;
  final double[] active;
  // retries, by the bucket their range finished in; and of the attempts, those the store asked to slow down
  final double[] retried;
  final double[] throttled;
  // objects
  long objects;
  long objectsCopied;
  long objectsFailed;
  long objectsMissing;
  long objectsNotCopied;
  long objectsCarriedInPart;
  long objectsArchived;
  long objectsRestoring;
  /** Copied objects by how they were checked (ObjectResult.verified). */
  final TreeMap<String, Long> verifiedBy = new TreeMap<>();
  long objectBytes;
  long objectBytesCopied;
  final List<ObjectResult> failures = new ArrayList<>();
  /** Objects the job's settings left (symbolic links, archived objects skipped), the first by key, with why. */
  final List<ObjectResult> notCopied = new ArrayList<>();

  public RunStats(long timelineStartMillis, long timelineEndMillis, int buckets) {
    this.timelineStartMillis = timelineStartMillis;
    int count = Math.max(1, buckets);
    this.bucketMillis = Math.max(100, (timelineEndMillis - timelineStartMillis + count - 1) / count);
    this.timeline = new double[count + 1];
    this.active = new double[count + 1];
    this.retried = new double[count + 1];
    this.throttled = new double[count + 1];
  }

  public RunStats add(RangeResult r) {
    ranges++;
    if (r.status() == RangeResult.Status.OK) rangesOk++;
    retries += Math.max(0, r.attempts() - 1);
    bytes += r.bytes();
    payloadBytes += r.payloadBytes();
    maxMbps = Math.max(maxMbps, r.megabytesPerSecond());
    requestsByMethod.merge(r.method(), (long) r.attempts(), Long::sum);
    ExecutorStats e = executors.computeIfAbsent(r.executorId(), k -> new ExecutorStats());
    e.host = r.host();
    e.ranges++;
    e.bytes += r.bytes();
    e.busyNanos += r.durationNanos();
    e.streams(r.startedAtMillis(), r.streams(), r.streams(), r.streams());
    streamNanos += r.durationNanos();
    if (r.firstByteNanos() > 0) firstByteNanos += r.firstByteNanos();
    busy(r);
    if (r.attempts() > 1) {
      long at = Math.max(0, (r.finishedAtMillis() - timelineStartMillis) / bucketMillis);
      retried[(int) Math.min(retried.length - 1, at)] += r.attempts() - 1;
    }
    if (r.throttled() > 0) {
      long at = Math.max(0, (r.finishedAtMillis() - timelineStartMillis) / bucketMillis);
      throttled[(int) Math.min(throttled.length - 1, at)] += r.throttled();
    }
    if (r.bytes() > 0) {
      long key = mix(r.object().key().hashCode() * 31L + r.partNumber());
      sample.add(new Sampled(key, r.megabytesPerSecond(), r.firstByteNanos() < 0 ? Double.NaN : r.firstByteNanos() / 1e6));
      trimSample();
      spread(r, timeline);
      if (e.timeline == null) e.timeline = new double[timeline.length];
      spread(r, e.timeline);
    }
    slowest.add(r);
    trimSlowest();
    return this;
  }

  public RunStats add(ObjectResult o) {
    objects++;
    objectBytes += o.object().size();
    if (o.object().isArchived()) objectsArchived++;
    if (o.status() == ObjectResult.Status.COPIED) {
      objectsCopied++;
      objectBytesCopied += o.object().size();
      verifiedBy.merge(o.verified().isEmpty() ? "none" : o.verified(), 1L, Long::sum);
      if (!o.notCarried().isEmpty()) objectsCarriedInPart++;
    } else if (o.status() == ObjectResult.Status.MISSING) {
      objectsMissing++;
    } else if (o.status() == ObjectResult.Status.NOT_COPIED) {
      objectsNotCopied++;
      notCopied.add(o);
      firstByKey(notCopied);
    } else if (o.status() == ObjectResult.Status.RESTORING) {
      objectsRestoring++;
    } else if (o.status() == ObjectResult.Status.FAILED) {
      objectsFailed++;
      failures.add(o);
      firstByKey(failures);
    }
    return this;
  }

  public RunStats merge(RunStats other) {
    ranges += other.ranges;
    rangesOk += other.rangesOk;
    retries += other.retries;
    bytes += other.bytes;
    payloadBytes += other.payloadBytes;
    maxMbps = Math.max(maxMbps, other.maxMbps);
    other.requestsByMethod.forEach((k, v) -> requestsByMethod.merge(k, v, Long::sum));
    other.executors.forEach((k, v) -> executors.merge(k, v, (x, y) -> {
      x.ranges += y.ranges;
      x.bytes += y.bytes;
      x.busyNanos += y.busyNanos;
      x.host = x.host.isEmpty() ? y.host : x.host;
      x.streams(y.firstStart, y.firstStreams, y.leastStreams, y.mostStreams);
      x.streams(y.lastStart, y.lastStreams, y.leastStreams, y.mostStreams);
      if (x.timeline == null) {
        x.timeline = y.timeline == null ? null : y.timeline.clone();
      } else if (y.timeline != null) {
        for (int i = 0; i < x.timeline.length && i < y.timeline.length; i++) x.timeline[i] += y.timeline[i];
      }
      return x;
    }));
    sample.addAll(other.sample);
    trimSample();
    slowest.addAll(other.slowest);
    trimSlowest();
    for (int i = 0; i < timeline.length && i < other.timeline.length; i++) timeline[i] += other.timeline[i];
    for (int i = 0; i < active.length && i < other.active.length; i++) active[i] += other.active[i];
    for (int i = 0; i < retried.length && i < other.retried.length; i++) retried[i] += other.retried[i];
    for (int i = 0; i < throttled.length && i < other.throttled.length; i++) throttled[i] += other.throttled[i];
    streamNanos += other.streamNanos;
    firstByteNanos += other.firstByteNanos;
    objects += other.objects;
    objectsCopied += other.objectsCopied;
    objectsFailed += other.objectsFailed;
    objectsMissing += other.objectsMissing;
    objectsNotCopied += other.objectsNotCopied;
    objectsCarriedInPart += other.objectsCarriedInPart;
    objectsArchived += other.objectsArchived;
    objectsRestoring += other.objectsRestoring;
    other.verifiedBy.forEach((k, v) -> verifiedBy.merge(k, v, Long::sum));
    objectBytes += other.objectBytes;
    objectBytesCopied += other.objectBytesCopied;
    failures.addAll(other.failures);
    firstByKey(failures);
    notCopied.addAll(other.notCopied);
    firstByKey(notCopied);
    return this;
  }

  /** Per executor, the streams it allowed at once over the copy, where they changed (a tuned copy); empty otherwise. */
  List<RunSummary.Streams> tunedStreams() {
    List<RunSummary.Streams> tuned = new ArrayList<>();
    executors.forEach((id, e) -> {
      if (e.leastStreams != e.mostStreams) {
        tuned.add(new RunSummary.Streams(id, e.firstStreams, e.lastStreams, e.leastStreams, e.mostStreams));
      }
    });
    return tuned;
  }

  /** The q-quantile (0..1) of the sampled ranges' MB/s, 0 when nothing moved. */
  public double rateQuantile(double q) {
    return quantile(sampled().stream().mapToDouble(Sampled::mbps).sorted().toArray(), q);
  }

  /** The bottom-k sample: the {@link #SAMPLE} sampled ranges with the smallest keys (all of them below that). */
  List<Sampled> sampled() {
    List<Sampled> sorted = new ArrayList<>(sample);
    sorted.sort(Comparator.comparingLong(Sampled::sampleKey));
    return sorted.subList(0, Math.min(SAMPLE, sorted.size()));
  }

  /** The q-quantile of time to first byte in ms over sampled ranges that have one, 0 when none. */
  public double firstByteQuantile(double q) {
    return quantile(sampled().stream().mapToDouble(Sampled::firstByteMs).filter(d -> !Double.isNaN(d)).sorted().toArray(), q);
  }

  static double quantile(double[] sorted, double q) {
    if (sorted.length == 0) return 0;
    int index = (int) Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
    return sorted[index];
  }

  /** Timeline points (seconds since the copy stage began, MB/s). */
  public List<double[]> timeline() {
    return points(timeline, lastMoved());
  }

  /** One executor's share of {@link #timeline()}, point for point (empty for an executor that moved nothing). */
  public List<double[]> timeline(String executor) {
    ExecutorStats e = executors.get(executor);
    return e == null || e.timeline == null ? List.of() : points(e.timeline, lastMoved());
  }

  /** Retries by when their range finished: seconds into the copy stage (a bucket's start) and how many; buckets with any. */
  public List<double[]> retries() {
    return marks(retried);
  }

  /** Seconds into the copy and the attempts the store answered by asking to slow down, per bucket that had any. */
  public List<double[]> throttled() {
    return marks(throttled);
  }

  private List<double[]> marks(double[] counts) {
    List<double[]> points = new ArrayList<>();
    for (int b = 0; b < counts.length; b++) if (counts[b] > 0) points.add(new double[] {b * bucketMillis / 1000.0, counts[b]});
    return points;
  }

  private int lastMoved() {
    int last = timeline.length - 1;
    while (last > 0 && timeline[last] == 0) last--;
    return last;
  }

  /** Seconds into the copy and MB/s, per bucket up to {@code last}. */
  private List<double[]> points(double[] bytes, int last) {
    List<double[]> points = new ArrayList<>();
    for (int b = 0; b <= last; b++) points.add(new double[] {b * bucketMillis / 1000.0, bytes[b] / 1e6 / (bucketMillis / 1000.0)});
    return points;
  }

  /** A histogram of sampled range MB/s: edges (buckets + 1) and counts. */
  public double[][] histogram(int buckets) {
    List<Sampled> sampled = sampled();
    double max = sampled.stream().mapToDouble(Sampled::mbps).max().orElse(1);
    double width = Math.max(max, 1e-9) / buckets;
    double[] edges = new double[buckets + 1];
    double[] counts = new double[buckets];
    for (int i = 0; i <= buckets; i++) edges[i] = i * width;
    for (Sampled s : sampled) counts[(int) Math.min(buckets - 1, s.mbps() / width)]++;
    return new double[][] {edges, counts};
  }

  public List<RangeResult> slowest() {
    return slowest;
  }

  public List<ObjectResult> failures() {
    return failures;
  }

  public Map<String, ExecutorStats> executors() {
    return executors;
  }

  private void spread(RangeResult r, double[] timeline) {
    long from = r.startedAtMillis() - timelineStartMillis;
    long to = Math.max(from + 1, r.finishedAtMillis() - timelineStartMillis);
    double perMilli = r.bytes() / (double) (to - from);
    for (long b = Math.max(0, from / bucketMillis); b * bucketMillis < to && b < timeline.length; b++) {
      long overlap = Math.min(to, (b + 1) * bucketMillis) - Math.max(from, b * bucketMillis);
      if (overlap > 0) timeline[(int) b] += overlap * perMilli;
    }
  }

  /** Adds the range's busy milliseconds to the buckets of the copy stage it spans. */
  private void busy(RangeResult r) {
    long from = r.startedAtMillis() - timelineStartMillis;
    long to = Math.max(from + 1, r.finishedAtMillis() - timelineStartMillis);
    for (long b = Math.max(0, from / bucketMillis); b * bucketMillis < to && b < active.length; b++) {
      long overlap = Math.min(to, (b + 1) * bucketMillis) - Math.max(from, b * bucketMillis);
      if (overlap > 0) active[(int) b] += overlap;
    }
  }

  /**
   * What a verdict is drawn from, these statistics with the run's own figures.
   *
   * @param copySeconds the copy stage's wall time
   * @param limitMBps {@code limits.bandwidth} in MB/s (0: none, or not known)
   */
  public Verdict.Evidence evidence(double wallSeconds, Map<String, Double> stageSeconds, double copySeconds, double limitMBps) {
    int last = (int) Math.min(active.length - 1, Math.max(0, (long) Math.ceil(copySeconds * 1000 / bucketMillis) - 1));
    double peak = 0;
    for (int b = 0; b <= last; b++) peak = Math.max(peak, active[b] / bucketMillis);
    int thin = 0;
    for (int b = 0; b <= last; b++) if (active[b] / bucketMillis < peak / 2) thin++;
    double slowest = this.slowest.stream().mapToLong(RangeResult::durationNanos).max().orElse(0) / 1e9;
    return new Verdict.Evidence(wallSeconds, stageSeconds, copySeconds, bytes, ranges, retries, streamNanos / 1e9, firstByteNanos / 1e9,
        Math.max(1, Math.round(peak)), peak == 0 ? 0 : (double) thin / (last + 1), slowest, firstByteQuantile(0.5), limitMBps,
        requestsByMethod.keySet().stream().filter(m -> !m.isEmpty()).collect(Collectors.toSet()));
  }

  /**
   * When the copy's tail began (epoch milliseconds): the start of the last stretch of the copy stage during which fewer
   * than half the most streams ever busy at once were busy, to its end; {@code Long.MAX_VALUE} when its streams were
   * busy to the end. The tasks still running then are its stragglers.
   */
  public long tailStartMillis(double copySeconds) {
    int last = (int) Math.min(active.length - 1, Math.max(0, (long) Math.ceil(copySeconds * 1000 / bucketMillis) - 1));
    double peak = 0;
    for (int b = 0; b <= last; b++) peak = Math.max(peak, active[b] / bucketMillis);
    int first = last + 1;
    while (first > 0 && active[first - 1] / bucketMillis < peak / 2) first--;
    return peak == 0 || first > last ? Long.MAX_VALUE : timelineStartMillis + first * bucketMillis;
  }

  /** Keeps the first {@link #FAILURES} objects by key: the same ones whatever the order they came in. */
  private static void firstByKey(List<ObjectResult> objects) {
    objects.sort(Comparator.comparing(f -> f.object().key()));
    while (objects.size() > FAILURES) objects.remove(objects.size() - 1);
  }

  /** The first objects by key that the job's settings left, with why. */
  public List<ObjectResult> notCopied() {
    return notCopied;
  }

  private void trimSample() {
    if (sample.size() <= SAMPLE * 2) return;
    sample.sort(Comparator.comparingLong(Sampled::sampleKey));
    sample.subList(SAMPLE, sample.size()).clear();
  }

  private void trimSlowest() {
    slowest.sort(Comparator.comparingLong(RangeResult::durationNanos).reversed());
    if (slowest.size() > SLOWEST) slowest.subList(SLOWEST, slowest.size()).clear();
  }

  /** A 64-bit mix (SplitMix64's finalizer): sample keys spread evenly whatever the key hashes are. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
