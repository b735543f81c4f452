package io.ferry.spark;

import io.ferry.config.PlanConfig;
import io.ferry.plan.CopyPlanner;
import io.ferry.plan.CopyTask;
import io.ferry.store.Capabilities;
import io.ferry.store.StoreObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;

/** A partition's objects planned into tasks in key order; task ids are the partition's index, then a count. */
public final class PlanFunction implements Function2<Integer, Iterator<StoreObject>,
    Iterator<CopyTask>> {
  private static final long serialVersionUID = 1L;
  private final PlanConfig config;
  private final Capabilities capabilities;
  private final boolean serverSide;
  private final int generation;
  private final Broadcast<Map<String, CopyPlanner.OpenedBefore>> openedBefore;

  /** @param generation of a replay's versions: its tasks' ids are apart from other generations' */
  public PlanFunction(PlanConfig config, Capabilities capabilities, boolean serverSide, int generation) {
    this(config, capabilities, serverSide, generation, null);
  }

  /** @param openedBefore part sizes objects keep ({@link CopyPlanner}); null for none */
  public PlanFunction(PlanConfig config, Capabilities capabilities, boolean serverSide, int generation,
      Broadcast<Map<String, CopyPlanner.OpenedBefore>> openedBefore) {
    this.config = config;
    this.capabilities = capabilities;
    this.serverSide = serverSide;
    this.generation = generation;
    this.openedBefore = openedBefore;
  }

  @Override
  public Iterator<CopyTask> call(Integer partition, Iterator<StoreObject> input) {
    // in key order: a partition computed again (an executor lost) plans the same tasks, whatever order the join gave
    List<StoreObject> sorted = new ArrayList<>();
    input.forEachRemaining(sorted::add);
    sorted.sort(Comparator.comparing(StoreObject::key).thenComparing(StoreObject::relativeKey)
        .thenComparing(StoreObject::versionId));
    Iterator<StoreObject> objects = sorted.iterator();
    CopyPlanner planner = new CopyPlanner(config, capabilities, serverSide, ((long) generation << 52) + ((long) partition << 32),
        openedBefore == null ? Map.of() : openedBefore.value());
    return new Iterator<>() {
      private Iterator<CopyTask> ready = Collections.emptyIterator();
      private boolean finished;

      @Override
      public boolean hasNext() {
        while (!ready.hasNext()) {
          if (objects.hasNext()) {
            ready = planner.add(objects.next()).iterator();
          } else if (!finished) {
            finished = true;
            ready = planner.finish().iterator();
          } else {
            return false;
          }
        }
        return true;
      }

      @Override
      public CopyTask next() {
        if (!hasNext()) throw new NoSuchElementException();
        return ready.next();
      }
    };
  }
}
