package io.ferry.copy;

import io.ferry.plan.CopyTask;
import io.ferry.plan.RangeTask;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Copies the ranges of a partition's tasks with a bounded number of concurrent streams. Results keep the input
 * order. If the calling (Spark task) thread is interrupted, every stream is cancelled and the interruption is
 * rethrown, so a killed task stops its streams.
 */
public final class ConcurrentRanges {
  private ConcurrentRanges() {}

  public static List<RangeResult> copy(List<CopyTask> tasks, int streams, RangeCopier copier) throws InterruptedException {
    record Job(int taskId, RangeTask range) {}
    List<Job> jobs = new ArrayList<>();
    for (CopyTask task : tasks) for (RangeTask range : task.ranges()) jobs.add(new Job(task.id(), range));
    if (jobs.isEmpty()) return List.of();
    int threads = Math.min(streams, jobs.size());
    AtomicInteger count = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "ferry-stream-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<RangeResult>> futures = new ArrayList<>();
      for (Job job : jobs) futures.add(pool.submit(() -> copier.copy(job.taskId(), job.range())));
      List<RangeResult> results = new ArrayList<>(jobs.size());
      for (Future<RangeResult> future : futures) {
        try {
          results.add(future.get());
        } catch (ExecutionException e) {
          throw new IllegalStateException("a range copy failed unexpectedly", e.getCause());
        }
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
