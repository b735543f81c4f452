package io.ferry.copy;

import io.ferry.plan.CopyTask;
import io.ferry.plan.RangeTask;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies the ranges of a partition's tasks with a bounded number of concurrent streams ({@link Concurrently}):
 * results in input order; an interrupted Spark task cancels its streams.
 */
public final class ConcurrentRanges {
  private ConcurrentRanges() {}

  public static List<RangeResult> copy(List<CopyTask> tasks, int streams, RangeCopier copier) throws InterruptedException {
    record Job(int taskId, RangeTask range) {}
    List<Job> jobs = new ArrayList<>();
    for (CopyTask task : tasks) for (RangeTask range : task.ranges()) jobs.add(new Job(task.id(), range));
    return Concurrently.map(jobs, streams, "ferry-stream", job -> copier.copy(job.taskId(), job.range()));
  }
}
