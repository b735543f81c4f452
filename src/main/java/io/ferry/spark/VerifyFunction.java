package io.ferry.spark;

import io.ferry.copy.Concurrently;
import io.ferry.store.Store;
import io.ferry.verify.Comparison;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;

/** VERIFY, on the executors: the partition's ranges read on both sides and compared, {@code streams-per-task} at a time. */
public final class VerifyFunction implements FlatMapFunction<Iterator<Comparison.Check>, Comparison.Range> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;

  public VerifyFunction(CopySettings settings) {
    this.settings = settings;
  }

  @Override
  public Iterator<Comparison.Range> call(Iterator<Comparison.Check> checks) throws InterruptedException {
    List<Comparison.Check> list = new ArrayList<>();
    checks.forEachRemaining(list::add);
    Store destination = ExecutorContext.store(settings.destination().store(), settings);
    Comparison comparison = new Comparison(ExecutorContext.source(settings).reader(), destination.reader(),
        ExecutorContext.retrier(settings));
    return Concurrently.map(list, settings.copy().streamsPerTask(), "ferry-verify", comparison::compare).iterator();
  }
}
