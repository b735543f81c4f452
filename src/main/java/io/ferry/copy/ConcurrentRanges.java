package io.ferry.copy;

import io.ferry.plan.RangeTask;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.Upload;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Copies the ranges of a partition's tasks with a bounded number of concurrent streams ({@link Concurrently}):
 * results in input order; an interrupted Spark task cancels its streams.
 */
public final class ConcurrentRanges {
  private ConcurrentRanges() {}

  /**
   * @param moving told of bytes while they move and of their settling (see {@link Progress}), on the streams' threads
   * @param done told of each range as it finishes, on its stream's thread (the ledger records parts as they land)
   */
  public static List<RangeResult> copy(List<Assignment> assignments, int streams, RangeCopier copier, LongConsumer moving,
      Consumer<RangeResult> done) throws InterruptedException {
    return copy(assignments, streams, StreamGate.fixed(streams), copier, moving, done);
  }

  /**
   * @param streams the task's threads: its most streams
   * @param gate the executor's streams, which each range takes before it starts (a tuned gate: fewer than the threads)
   */
  public static List<RangeResult> copy(List<Assignment> assignments, int streams, StreamGate gate, RangeCopier copier,
      LongConsumer moving, Consumer<RangeResult> done) throws InterruptedException {
    record Job(long taskId, RangeTask range, Upload upload, Checksum expected) {}
    List<Job> jobs = new ArrayList<>();
    for (Assignment a : assignments) {
      for (RangeTask range : a.task().ranges()) jobs.add(new Job(a.task().id(), range, a.uploadOf(range), a.expected()));
    }
    LongConsumer watched = delta -> {
      moving.accept(delta);
      gate.moving(delta);
    };
    return Concurrently.map(jobs, streams, "ferry-stream", job -> {
      int allowed = gate.acquire();
      RangeResult result = null;
      try {
        result = copier.copy(job.taskId(), job.range(), job.upload(), job.expected(), watched).withStreams(allowed);
      } finally {
        gate.release(result == null ? 0 : result.bytes(), result != null && result.attempts() > 1);
      }
      done.accept(result);
      return copier.inOrder(job.range(), job.upload(), job.expected(), result); // after the ledger has the part
    });
  }
}
