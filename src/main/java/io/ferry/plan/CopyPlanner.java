package io.ferry.plan;

import io.ferry.config.PlanConfig;
import io.ferry.store.ByteRange;
import io.ferry.store.Capabilities;
import io.ferry.store.StoreObject;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns objects to copy into copy tasks, as they come (one planner per partition of the plan). Pure: no Spark, no SDK.
 *
 * <ul>
 *   <li>An object larger than the part size becomes one task per part, so its ranges spread over the cluster; for
 *       server-side copies only one larger than the copy cutoff does (the service copies the rest in one request).
 *   <li>Smaller objects (and empty ones) are whole-object ranges, bundled in input order into tasks of about
 *       {@code bundle-size} bytes and at most {@code bundle-objects} objects, so one task amortises scheduling.
 * </ul>
 * Task ids count up from {@code firstId} in input order, so the same input always gives the same tasks.
 */
public final class CopyPlanner {
  private final PlanConfig config;
  private final long wholeObjectLimit;
  private final int maxParts;
  private final Map<String, OpenedBefore> openedBefore;
  private final long leastPart;
  private final long mostPart;
  private final List<RangeTask> bundle = new ArrayList<>();
  private long bundleBytes;
  private long nextId;

  /**
   * @param limits the destination's part limits
   * @param serverSide the objects are copied inside one service (whole objects up to the copy cutoff)
   * @param firstId the id of the first task
   */
  public CopyPlanner(PlanConfig config, Capabilities limits, boolean serverSide, long firstId) {
    this(config, limits, serverSide, firstId, Map.of());
  }

  /**
   * An object an earlier run left open at this destination, as it was opened, and its part size: a rerun resumes it
   * only in those parts.
   */
  public record OpenedBefore(StoreObject object, long partSize) implements Serializable {}

  /**
   * @param openedBefore by relative key, objects that keep their part size whatever the config's, while they are the
   *     object opened and the size is one the destination takes
   */
  public CopyPlanner(PlanConfig config, Capabilities limits, boolean serverSide, long firstId, Map<String, OpenedBefore> openedBefore) {
    this.config = config;
    this.openedBefore = openedBefore;
    this.leastPart = limits.minPartSize();
    this.mostPart = limits.maxPartSize();
    this.maxParts = limits.maxParts();
    this.wholeObjectLimit = config.wholeObjectLimit(serverSide);
    this.nextId = firstId;
  }

  /**
   * Plans one object: returns the tasks it completes (its parts; or a full bundle of small objects before it), in
   * order; a small object may wait in the open bundle for {@link #finish}.
   */
  public List<CopyTask> add(StoreObject object) {
    OpenedBefore k = openedBefore.get(object.relativeKey());
    Long keep = k != null && k.object().equals(object) && k.partSize() >= leastPart && k.partSize() <= mostPart ? k.partSize() : null;
    long partSize = PartSizing.partSize(object.size(), keep != null ? keep : config.partSize(), maxParts);
    int parts = keep == null && object.size() <= wholeObjectLimit ? 1 : PartSizing.partCount(object.size(), partSize);
    if (parts == 1) {
      List<CopyTask> ready = List.of();
      if (!bundle.isEmpty() && (bundleBytes + object.size() > config.bundleSize() || bundle.size() >= config.bundleObjects())) {
        ready = List.of(flushBundle());
      }
      bundle.add(new RangeTask(object, 1, 1, new ByteRange(0, object.size())));
      bundleBytes += object.size();
      return ready;
    }
    List<CopyTask> tasks = new ArrayList<>(parts);
    for (int part = 1; part <= parts; part++) {
      tasks.add(new CopyTask(nextId++, List.of(new RangeTask(object, part, parts, PartSizing.part(object.size(), partSize, part)))));
    }
    return tasks;
  }

  /** The open bundle, if any. */
  public List<CopyTask> finish() {
    return bundle.isEmpty() ? List.of() : List.of(flushBundle());
  }

  private CopyTask flushBundle() {
    CopyTask task = new CopyTask(nextId++, bundle);
    bundle.clear();
    bundleBytes = 0;
    return task;
  }
}
