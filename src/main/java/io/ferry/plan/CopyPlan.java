package io.ferry.plan;

import java.io.Serializable;
import java.util.List;

/** What a run will do: the tasks, and the totals a dry run prints. */
public record CopyPlan(List<CopyTask> tasks, long objects, long bytes, long ranges, long splitObjects, long skippedObjects)
    implements Serializable {
  public CopyPlan {
    tasks = List.copyOf(tasks);
  }

  /** GET requests the copy will send (an empty object needs none). */
  public long getRequests() {
    long requests = 0;
    for (CopyTask task : tasks) {
      for (RangeTask range : task.ranges()) if (range.range().length() > 0) requests++;
    }
    return requests;
  }
}
