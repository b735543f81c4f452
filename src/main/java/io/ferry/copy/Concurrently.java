package io.ferry.copy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one function over a Spark task's inputs on a bounded number of threads. Results keep the input order. If the
 * calling (Spark task) thread is interrupted, every thread is cancelled and the interruption is rethrown, so a killed
 * task stops its work; the function is expected to return a result for its own failures, not throw.
 */
public final class Concurrently {
  private Concurrently() {}

  /** The work for one input. */
  @FunctionalInterface
  public interface Work<I, O> {
    O apply(I input) throws Exception;
  }

  public static <I, O> List<O> map(List<I> inputs, int threads, String name, Work<I, O> work) throws InterruptedException {
    if (inputs.isEmpty()) return List.of();
    AtomicInteger count = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, inputs.size()), r -> {
      Thread t = new Thread(r, name + "-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<O>> futures = new ArrayList<>(inputs.size());
      for (I input : inputs) futures.add(pool.submit(() -> work.apply(input)));
      List<O> results = new ArrayList<>(inputs.size());
      for (Future<O> future : futures) {
        try {
          results.add(future.get());
        } catch (ExecutionException e) {
          throw new IllegalStateException(name + " failed unexpectedly", e.getCause());
        }
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
