package io.ferry.report;

import io.ferry.commit.ObjectResult;
import io.ferry.copy.RangeResult;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

  /** What a run counts: each is added up over the partitions. */
  public enum Count {
    RANGES, RANGES_OK, RETRIES, BYTES, PAYLOAD_BYTES,
    /** the ranges' durations, and their first bytes' waits, summed */
    STREAM_NANOS, FIRST_BYTE_NANOS,
    OBJECTS, OBJECTS_COPIED, OBJECTS_FAILED, OBJECTS_MISSING, OBJECTS_NOT_COPIED, OBJECTS_CARRIED_IN_PART, OBJECTS_ARCHIVED,
    OBJECTS_RESTORING, OBJECT_BYTES, OBJECT_BYTES_COPIED
  }

  /** One sampled range: its sample key (a hash), MB/s and time to first byte (ms, NaN when none). */
  record Sampled(long sampleKey, double mbps, double firstByteMs) implements Serializable {}

  private final long[] counts = new long[Count.values().length];
  double maxMbps;
  /** The other statistics, each merging itself: a new one is declared here, through {@link #merged}, and nowhere else. */
  private final List<Mergeable<?>> merged = new ArrayList<>();
  final Tally requestsByMethod = merged(new Tally());
  /** Copied objects by how they were checked (ObjectResult.verified). */
  final Tally verifiedBy = merged(new Tally());
  /** The bottom-k sample of ranges by sample key. */
  final Top<Sampled> sample = merged(new Top<>(SAMPLE, 2, (a, b) -> Long.compare(a.sampleKey(), b.sampleKey())));
  final Top<RangeResult> slowest = merged(new Top<>(SLOWEST, 1, (a, b) -> Long.compare(b.durationNanos(), a.durationNanos())));
  /** The first objects by key that failed; that the job's settings left (symbolic links, archived objects skipped). */
  final Top<ObjectResult> failures = merged(new Top<>(FAILURES, 1, (a, b) -> a.object().key().compareTo(b.object().key())));
  final Top<ObjectResult> notCopied = merged(new Top<>(FAILURES, 1, (a, b) -> a.object().key().compareTo(b.object().key())));
  /** Bytes per bucket of the copy stage, each range's bytes spread evenly over its duration. */
  final Buckets timeline;
  /** Stream-milliseconds per bucket. */
  final Buckets active;
  /** Retries, by the bucket their range finished in; of the attempts, those the store asked to slow down. */
  final Buckets retried;
  final Buckets throttled;
  private final ExecutorsStats executors;

  public RunStats(long timelineStartMillis, long timelineEndMillis, int buckets) {
    int count = Math.max(1, buckets);
    long bucketMillis = Math.max(100, (timelineEndMillis - timelineStartMillis + count - 1) / count);
    timeline = merged(new Buckets(timelineStartMillis, bucketMillis, count + 1));
    active = merged(timeline.like());
    retried = merged(timeline.like());
    throttled = merged(timeline.like());
    executors = merged(new ExecutorsStats(timeline));
  }

  private <T extends Mergeable<?>> T merged(T statistic) {
    merged.add(statistic);
    return statistic;
  }

  public long get(Count c) {
    return counts[c.ordinal()];
  }

  private void count(Count c, long n) {
    counts[c.ordinal()] += n;
  }

  public RunStats add(RangeResult r) {
    count(Count.RANGES, 1);
    if (r.status() == RangeResult.Status.OK) count(Count.RANGES_OK, 1);
    count(Count.RETRIES, Math.max(0, r.attempts() - 1));
    count(Count.BYTES, r.bytes());
    count(Count.PAYLOAD_BYTES, r.payloadBytes());
    count(Count.STREAM_NANOS, r.durationNanos());
    if (r.firstByteNanos() > 0) count(Count.FIRST_BYTE_NANOS, r.firstByteNanos());
    maxMbps = Math.max(maxMbps, r.megabytesPerSecond());
    requestsByMethod.add(r.method(), r.attempts());
    ExecutorStats e = executors.of(r.executorId());
    e.host = r.host();
    e.ranges++;
    e.bytes += r.bytes();
    e.busyNanos += r.durationNanos();
    e.streams(r.startedAtMillis(), r.streams(), r.streams(), r.streams());
    active.spread(r.startedAtMillis(), r.finishedAtMillis(), 1);
    if (r.attempts() > 1) retried.at(r.finishedAtMillis(), r.attempts() - 1);
    if (r.throttled() > 0) throttled.at(r.finishedAtMillis(), r.throttled());
    if (r.bytes() > 0) {
      long key = mix(r.object().key().hashCode() * 31L + r.partNumber());
      sample.add(new Sampled(key, r.megabytesPerSecond(), r.firstByteNanos() < 0 ? Double.NaN : r.firstByteNanos() / 1e6));
      double perMilli = r.bytes() / (double) Math.max(1, r.finishedAtMillis() - r.startedAtMillis());
      timeline.spread(r.startedAtMillis(), r.finishedAtMillis(), perMilli);
      e.timeline.spread(r.startedAtMillis(), r.finishedAtMillis(), perMilli);
    }
    slowest.add(r);
    return this;
  }

  public RunStats add(ObjectResult o) {
    count(Count.OBJECTS, 1);
    count(Count.OBJECT_BYTES, o.object().size());
    if (o.object().isArchived()) count(Count.OBJECTS_ARCHIVED, 1);
    switch (o.status()) {
      case COPIED -> {
        count(Count.OBJECTS_COPIED, 1);
        count(Count.OBJECT_BYTES_COPIED, o.object().size());
        verifiedBy.add(o.verified().isEmpty() ? "none" : o.verified(), 1);
        if (!o.notCarried().isEmpty()) count(Count.OBJECTS_CARRIED_IN_PART, 1);
      }
      case MISSING -> count(Count.OBJECTS_MISSING, 1);
      case NOT_COPIED -> {
        count(Count.OBJECTS_NOT_COPIED, 1);
        notCopied.add(o);
      }
      case RESTORING -> count(Count.OBJECTS_RESTORING, 1);
      case FAILED -> {
        count(Count.OBJECTS_FAILED, 1);
        failures.add(o);
      }
      default -> { }
    }
    return this;
  }

  public RunStats merge(RunStats other) {
    for (int i = 0; i < counts.length; i++) counts[i] += other.counts[i];
    maxMbps = Math.max(maxMbps, other.maxMbps);
    for (int i = 0; i < merged.size(); i++) merged.get(i).mergeAny(other.merged.get(i));
    return this;
  }

  /** Per executor, the streams it allowed at once over the copy, where they changed (a tuned copy); empty otherwise. */
  List<RunSummary.Streams> tunedStreams() {
    List<RunSummary.Streams> tuned = new ArrayList<>();
    executors.all().forEach((id, e) -> {
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
    return sample.items();
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
    return timeline.rates(timeline.last(), 1e6);
  }

  /** One executor's share of {@link #timeline()}, point for point (empty for an executor that moved nothing). */
  public List<double[]> timeline(String executor) {
    ExecutorStats e = executors.all().get(executor);
    return e == null || e.bytes == 0 ? List.of() : e.timeline.rates(timeline.last(), 1e6);
  }

  /** Retries by when their range finished: seconds into the copy stage (a bucket's start) and how many; buckets with any. */
  public List<double[]> retries() {
    return retried.marks();
  }

  /** Seconds into the copy and the attempts the store answered by asking to slow down, per bucket that had any. */
  public List<double[]> throttled() {
    return throttled.marks();
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
    return slowest.items();
  }

  public List<ObjectResult> failures() {
    return failures.items();
  }

  public Map<String, ExecutorStats> executors() {
    return executors.all();
  }

  /**
   * What a verdict is drawn from, these statistics with the run's own figures.
   *
   * @param copySeconds the copy stage's wall time
   * @param limitMBps {@code limits.bandwidth} in MB/s (0: none, or not known)
   */
  public Verdict.Evidence evidence(double wallSeconds, Map<String, Double> stageSeconds, double copySeconds, double limitMBps) {
    int last = lastBucket(copySeconds);
    double peak = peakStreams(last);
    int thin = 0;
    for (int b = 0; b <= last; b++) if (active.get(b) / active.bucketMillis() < peak / 2) thin++;
    double slowest = slowest().stream().mapToLong(RangeResult::durationNanos).max().orElse(0) / 1e9;
    return new Verdict.Evidence(wallSeconds, stageSeconds, copySeconds, get(Count.BYTES), get(Count.RANGES), get(Count.RETRIES),
        get(Count.STREAM_NANOS) / 1e9, get(Count.FIRST_BYTE_NANOS) / 1e9, Math.max(1, Math.round(peak)),
        peak == 0 ? 0 : (double) thin / (last + 1), slowest, firstByteQuantile(0.5), limitMBps,
        requestsByMethod.counts().keySet().stream().filter(m -> !m.isEmpty()).collect(Collectors.toSet()));
  }

  /** The last bucket of the copy stage. */
  private int lastBucket(double copySeconds) {
    return (int) Math.min(active.size() - 1, Math.max(0, (long) Math.ceil(copySeconds * 1000 / active.bucketMillis()) - 1));
  }

  /** The most streams busy at once, in buckets up to {@code last}. */
  private double peakStreams(int last) {
    double peak = 0;
    for (int b = 0; b <= last; b++) peak = Math.max(peak, active.get(b) / active.bucketMillis());
    return peak;
  }

  /**
   * When the copy's tail began (epoch milliseconds): the start of the last stretch of the copy stage during which fewer
   * than half the most streams ever busy at once were busy, to its end; {@code Long.MAX_VALUE} when its streams were
   * busy to the end. The tasks still running then are its stragglers.
   */
  public long tailStartMillis(double copySeconds) {
    int last = lastBucket(copySeconds);
    double peak = peakStreams(last);
    int first = last + 1;
    while (first > 0 && active.get(first - 1) / active.bucketMillis() < peak / 2) first--;
    return peak == 0 || first > last ? Long.MAX_VALUE : active.startMillis() + first * active.bucketMillis();
  }

  /** The first objects by key that the job's settings left, with why. */
  public List<ObjectResult> notCopied() {
    return notCopied.items();
  }

  /** A 64-bit mix (SplitMix64's finalizer): sample keys spread evenly whatever the key hashes are. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
