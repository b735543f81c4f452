package io.ferry.plan;

import io.ferry.config.PlanConfig;
import io.ferry.store.Capabilities;
import io.ferry.store.StoreObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Sorts listed objects into the plan and the rejected: a key the destination cannot hold (its own rule: an unsafe
 * path, a key too long), and, where keys are paths ({@link Capabilities#hierarchicalKeys()}), a key that is also a
 * prefix of other keys ("a" beside "a/b"), which a filesystem cannot hold both of.
 */
public final class Triage {
  /** An object set aside, and why. */
  public record Rejected(StoreObject object, String reason) {}

  /** The plan, and what was set aside. */
  public record Result(CopyPlan plan, List<Rejected> rejected) {}

  private Triage() {}

  /**
   * @param rejection the destination's reason not to write an object, or null
   * @param unchanged objects the destination already holds unchanged (skipped, counted)
   */
  public static Result plan(List<StoreObject> listed, PlanConfig config, Capabilities destination, boolean serverSide,
      Function<StoreObject, String> rejection, Predicate<StoreObject> unchanged) {
    Set<String> directories = new HashSet<>();
    if (destination.hierarchicalKeys()) {
      for (StoreObject o : listed) {
        String key = o.relativeKey();
        for (int slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) directories.add(key.substring(0, slash));
      }
    }
    List<Rejected> rejected = new ArrayList<>();
    CopyPlanner planner = new CopyPlanner(config, destination, serverSide, unchanged);
    for (StoreObject o : listed) {
      String reason = rejection.apply(o);
      if (reason == null && directories.contains(o.relativeKey())) {
        reason = "the key is also a prefix of other keys ('" + o.relativeKey() + "/...'): a filesystem cannot hold a file and a"
            + " directory of one name, so this object was not copied (the keys under it were)";
      }
      if (reason == null) {
        planner.add(o);
      } else {
        rejected.add(new Rejected(o, reason));
      }
    }
    return new Result(planner.finish(), rejected);
  }
}
