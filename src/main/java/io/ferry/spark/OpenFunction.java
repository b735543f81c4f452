package io.ferry.spark;

import io.ferry.copy.Opening;
import io.ferry.store.StoreObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;

/** OPEN, on the executors: each object of the partition opened for a write in parts ({@link Opening}). */
final class OpenFunction implements FlatMapFunction<Iterator<StoreObject>, Opening.Opened> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;

  OpenFunction(CopySettings settings) {
    this.settings = settings;
  }

  @Override
  public Iterator<Opening.Opened> call(Iterator<StoreObject> objects) {
    Opening opening = new Opening(ExecutorContext.source(settings).reader(), ExecutorContext.destination(settings), ExecutorContext.retrier(settings));
    List<Opening.Opened> out = new ArrayList<>();
    objects.forEachRemaining(o -> out.add(opening.open(o)));
    return out.iterator();
  }
}
