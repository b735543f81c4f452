package io.ferry.report;

import java.util.ArrayList;
import java.util.List;

/** A quantity per bucket of the copy stage's time (bytes, busy milliseconds, retries). */
final class Buckets implements Mergeable<Buckets> {
  private static final long serialVersionUID = 1L;
  private final long startMillis;
  private final long bucketMillis;
  private final double[] values;

  Buckets(long startMillis, long bucketMillis, int count) {
    this.startMillis = startMillis;
    this.bucketMillis = bucketMillis;
    this.values = new double[count];
  }

  /** An empty one over the same buckets. */
  Buckets like() {
    return new Buckets(startMillis, bucketMillis, values.length);
  }

  /** {@code amount} at the bucket of the instant {@code atMillis}. */
  void at(long atMillis, double amount) {
    long b = Math.max(0, (atMillis - startMillis) / bucketMillis);
    values[(int) Math.min(values.length - 1, b)] += amount;
  }

  /** {@code perMilli} for each millisecond from {@code fromMillis} to {@code toMillis}, over the buckets they span. */
  void spread(long fromMillis, long toMillis, double perMilli) {
    long from = fromMillis - startMillis;
    long to = Math.max(from + 1, toMillis - startMillis);
    for (long b = Math.max(0, from / bucketMillis); b * bucketMillis < to && b < values.length; b++) {
      long overlap = Math.min(to, (b + 1) * bucketMillis) - Math.max(from, b * bucketMillis);
      if (overlap > 0) values[(int) b] += overlap * perMilli;
    }
  }

  @Override
  public void merge(Buckets other) {
    for (int i = 0; i < values.length && i < other.values.length; i++) values[i] += other.values[i];
  }

  double get(int bucket) {
    return values[bucket];
  }

  int size() {
    return values.length;
  }

  long bucketMillis() {
    return bucketMillis;
  }

  long startMillis() {
    return startMillis;
  }

  /** The last bucket that holds anything (0 when none does). */
  int last() {
    int last = values.length - 1;
    while (last > 0 && values[last] == 0) last--;
    return last;
  }

  /** Seconds into the copy and this per second of a bucket (bytes: MB/s), per bucket up to {@code last}. */
  List<double[]> rates(int last, double unit) {
    List<double[]> points = new ArrayList<>();
    for (int b = 0; b <= last; b++) points.add(new double[] {seconds(b), values[b] / unit / (bucketMillis / 1000.0)});
    return points;
  }

  /** Seconds into the copy (a bucket's start) and what the bucket holds, per bucket that holds anything. */
  List<double[]> marks() {
    List<double[]> points = new ArrayList<>();
    for (int b = 0; b < values.length; b++) if (values[b] > 0) points.add(new double[] {seconds(b), values[b]});
    return points;
  }

  private double seconds(int bucket) {
    return bucket * bucketMillis / 1000.0;
  }
}
