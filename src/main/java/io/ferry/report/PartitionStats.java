package io.ferry.report;

import io.ferry.copy.RangeResult;
import java.io.Serializable;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;

/**
 * One Spark task of the copy (a partition): where it ran, what it moved and when. A row of the {@code partitions}
 * dataset and a bar of the report's lanes.
 *
 * @param objects distinct objects it copied ranges of
 * @param failures ranges that failed
 */
public record PartitionStats(int partition, String executor, String host, long ranges, long objects, long bytes,
    long startedAtMillis, long finishedAtMillis, long retries, long failures) implements Serializable {

  public double seconds() {
    return Math.max(0, finishedAtMillis - startedAtMillis) / 1000.0;
  }

  public double megabytesPerSecond() {
    double s = seconds();
    return s > 0 ? bytes / 1e6 / s : 0;
  }

  /** A partition's ranges added up; null when it copied none (ranges an earlier run copied are not this run's tasks). */
  public static PartitionStats of(int partition, Iterator<RangeResult> ranges) {
    long count = 0, bytes = 0, retries = 0, failures = 0, start = Long.MAX_VALUE, end = Long.MIN_VALUE;
    String executor = "", host = "";
    Set<String> objects = new HashSet<>();
    while (ranges.hasNext()) {
      RangeResult r = ranges.next();
      if (r.method().equals("resumed")) continue;
      count++;
      bytes += r.bytes();
      retries += Math.max(0, r.attempts() - 1);
      if (r.status() != RangeResult.Status.OK) failures++;
      start = Math.min(start, r.startedAtMillis());
      end = Math.max(end, r.finishedAtMillis());
      executor = r.executorId();
      host = r.host();
      objects.add(r.object().key());
    }
    return count == 0 ? null : new PartitionStats(partition, executor, host, count, objects.size(), bytes, start, end, retries, failures);
  }
}
