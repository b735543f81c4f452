package io.ferry.plan;

import java.io.Serializable;
import java.util.List;

/** A plan held whole (small jobs, tests): the tasks and their totals. */
public record CopyPlan(List<CopyTask> tasks, PlanTotals totals) implements Serializable {
  public CopyPlan {
    tasks = List.copyOf(tasks);
  }

  /** {@code tasks}, with {@code unchanged} objects skipped. */
  public static CopyPlan of(List<CopyTask> tasks, long unchanged) {
    PlanTotals totals = PlanTotals.NONE;
    for (CopyTask task : tasks) totals = totals.plus(PlanTotals.of(task));
    return new CopyPlan(tasks, totals.plus(PlanTotals.skipped(unchanged)));
  }

  public long objects() {
    return totals.objects();
  }

  public long bytes() {
    return totals.bytes();
  }

  public long ranges() {
    return totals.ranges();
  }

  public long splitObjects() {
    return totals.splitObjects();
  }

  public long skippedObjects() {
    return totals.unchanged();
  }

  /** GET requests the copy will send (an empty object needs none). */
  public long getRequests() {
    return totals.gets();
  }
}
