package io.ferry.spark;

import io.ferry.copy.Assignment;
import io.ferry.copy.ConcurrentRanges;
import io.ferry.copy.RangeResult;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;

/** COPY, on the executors: the ranges of a partition's tasks, copied with {@code streams-per-task} streams. */
final class CopyRangesFunction implements FlatMapFunction<Iterator<Assignment>, RangeResult> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;

  CopyRangesFunction(CopySettings settings) {
    this.settings = settings;
  }

  @Override
  public Iterator<RangeResult> call(Iterator<Assignment> tasks) throws InterruptedException {
    List<Assignment> list = new ArrayList<>();
    tasks.forEachRemaining(list::add);
    return ConcurrentRanges.copy(list, settings.copy().streamsPerTask(), ExecutorContext.copier(settings)).iterator();
  }
}
