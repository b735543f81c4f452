package io.ferry.plan;

import java.io.Serializable;
import java.util.List;

/**
 * An RDD element: one range of a large object, or a bundle of whole small objects. Executors copy the ranges of a
 * task concurrently.
 */
public record CopyTask(long id, List<RangeTask> ranges) implements Serializable {
  public CopyTask {
    ranges = List.copyOf(ranges);
    if (ranges.isEmpty()) throw new IllegalArgumentException("task " + id + " has no ranges");
  }

  public long bytes() {
    long total = 0;
    for (RangeTask range : ranges) total += range.range().length();
    return total;
  }
}
