package io.ferry.spark;

import io.ferry.store.Destination;
import io.ferry.store.StoreObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** The destination's objects (no staging of any job: temp files, markers), or only this job's strays. */
final class StrayFunction implements org.apache.spark.api.java.function.FlatMapFunction<Iterator<StoreObject>, StoreObject> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;
  private final boolean strays;

  StrayFunction(CopySettings settings, boolean strays) {
    this.settings = settings;
    this.strays = strays;
  }

  @Override
  public Iterator<StoreObject> call(Iterator<StoreObject> objects) {
    Destination destination = ExecutorContext.destination(settings);
    List<StoreObject> out = new ArrayList<>();
    objects.forEachRemaining(o -> {
      if (strays ? destination.isStray(o) : !destination.isStaging(o)) out.add(o);
    });
    return out.iterator();
  }
}
