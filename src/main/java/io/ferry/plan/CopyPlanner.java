package io.ferry.plan;

import io.ferry.config.PlanConfig;
import io.ferry.store.ByteRange;
import io.ferry.store.Capabilities;
import io.ferry.store.StoreObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Turns listed objects into copy tasks. Pure: no Spark, no SDK.
 *
 * <ul>
 *   <li>An object larger than the part size becomes one task per part, so its ranges spread over the cluster; for
 *       server-side copies only one larger than the copy cutoff does (the service copies the rest in one request).
 *   <li>Smaller objects (and empty ones) are whole-object ranges, bundled in listing order into tasks of about
 *       {@code bundle-size} bytes and at most {@code bundle-objects} objects, so one task amortises scheduling.
 * </ul>
 * Task ids are dense and follow the input order, so the same listing always gives the same plan.
 */
public final class CopyPlanner {
  private final PlanConfig config;
  private final Predicate<StoreObject> unchanged;
  private final long wholeObjectLimit;
  private final int maxParts;
  private final List<CopyTask> tasks = new ArrayList<>();
  private final List<RangeTask> bundle = new ArrayList<>();
  private long bundleBytes;
  private long objects;
  private long bytes;
  private long ranges;
  private long splitObjects;
  private long skipped;

  /**
   * @param limits the destination's part limits
   * @param serverSide the objects are copied inside one service (whole objects up to the copy cutoff)
   * @param unchanged objects the destination already holds unchanged; they are counted and skipped
   */
  public CopyPlanner(PlanConfig config, Capabilities limits, boolean serverSide, Predicate<StoreObject> unchanged) {
    this.config = config;
    this.maxParts = limits.maxParts();
    this.unchanged = unchanged;
    this.wholeObjectLimit = config.wholeObjectLimit(serverSide);
  }

  /** Plans every object of {@code objects}, skipping none. */
  public static CopyPlan plan(Iterable<StoreObject> objects, PlanConfig config, Capabilities limits) {
    CopyPlanner planner = new CopyPlanner(config, limits, false, o -> false);
    for (StoreObject object : objects) planner.add(object);
    return planner.finish();
  }

  public void add(StoreObject object) {
    if (unchanged.test(object)) {
      skipped++;
      return;
    }
    objects++;
    bytes += object.size();
    long partSize = PartSizing.partSize(object.size(), config.partSize(), maxParts);
    int parts = object.size() <= wholeObjectLimit ? 1 : PartSizing.partCount(object.size(), partSize);
    if (parts == 1) {
      ranges++;
      if (!bundle.isEmpty()
          && (bundleBytes + object.size() > config.bundleSize() || bundle.size() >= config.bundleObjects())) {
        flushBundle();
      }
      bundle.add(new RangeTask(object, 1, 1, new ByteRange(0, object.size())));
      bundleBytes += object.size();
      return;
    }
    splitObjects++;
    for (int part = 1; part <= parts; part++) {
      ranges++;
      tasks.add(new CopyTask(tasks.size(), List.of(new RangeTask(object, part, parts, PartSizing.part(object.size(), partSize, part)))));
    }
  }

  public CopyPlan finish() {
    flushBundle();
    return new CopyPlan(tasks, objects, bytes, ranges, splitObjects, skipped);
  }

  private void flushBundle() {
    if (bundle.isEmpty()) return;
    tasks.add(new CopyTask(tasks.size(), bundle));
    bundle.clear();
    bundleBytes = 0;
  }
}
