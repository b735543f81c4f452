package io.ferry.plan;

import io.ferry.config.PlanConfig;
import io.ferry.store.Capabilities;
import io.ferry.store.Destination;
import io.ferry.store.ObjectFilter;
import io.ferry.store.StoreObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides, key by key, between copying an object and leaving it: a key the destination cannot hold (its own rule: an
 * unsafe path, a key too long) is rejected, and so, where keys are paths ({@link Capabilities#hierarchicalKeys()}), is
 * a key that is also a folder of other keys ("a" beside "a/b"), which a filesystem cannot hold both of; an object the
 * destination holds unchanged is skipped; one only the destination holds is extraneous.
 */
public final class Triage {
  /** An object set aside, and why. */
  public record Rejected(StoreObject object, String reason) {}

  /** The plan, and what was set aside. */
  public record Result(CopyPlan plan, List<Rejected> rejected) {}

  private Triage() {}

  /** @param rules the destination, for its rules (rejection, unchanged); nothing is written */
  public static Decision decide(Pairing p, boolean hierarchical, Destination rules, ObjectFilter filter, boolean skipUnchanged) {
    StoreObject source = p.source();
    if (source == null) {
      return p.existing() != null && filter.selectsKey(p.existing()) ? Decision.of(Decision.Kind.EXTRANEOUS, p.existing())
          : Decision.of(Decision.Kind.NONE, p.existing());
    }
    if (!filter.inRanges(source)) return Decision.of(Decision.Kind.FILTERED, source);
    String reason = rules.rejection(source);
    if (reason == null && hierarchical && p.prefixOfOthers()) {
      reason = "the key is also a prefix of other keys ('" + source.relativeKey() + "/...'): a filesystem cannot hold a file and a"
          + " directory of one name, so this object was not copied (the keys under it were)";
    }
    if (reason != null) return new Decision(Decision.Kind.REJECTED, source, reason);
    if (skipUnchanged && p.existing() != null && rules.unchanged(source, p.existing())) return Decision.of(Decision.Kind.UNCHANGED, source);
    return Decision.of(Decision.Kind.COPY, source);
  }

  /** The folders a key is in: "a/b/c" is in "a" and "a/b". */
  public static List<String> folders(String relativeKey) {
    List<String> folders = new ArrayList<>();
    for (int slash = relativeKey.indexOf('/'); slash >= 0; slash = relativeKey.indexOf('/', slash + 1)) {
      folders.add(relativeKey.substring(0, slash));
    }
    return folders;
  }

  /** The whole triage of listings held in memory (small jobs, tests): the same decisions as the executors'. */
  public static Result plan(List<StoreObject> listed, List<StoreObject> existing, PlanConfig config, Capabilities destination,
      boolean serverSide, Destination rules, ObjectFilter filter, boolean skipUnchanged) {
    Set<String> folders = new HashSet<>();
    for (StoreObject o : listed) folders.addAll(folders(o.relativeKey()));
    Map<String, StoreObject> there = new LinkedHashMap<>();
    for (StoreObject o : existing) there.put(o.relativeKey(), o);
    List<Rejected> rejected = new ArrayList<>();
    CopyPlanner planner = new CopyPlanner(config, destination, serverSide, 0);
    List<CopyTask> tasks = new ArrayList<>();
    long skipped = 0;
    for (StoreObject o : listed) {
      Decision d = decide(new Pairing(o.relativeKey(), o, there.get(o.relativeKey()), folders.contains(o.relativeKey())),
          destination.hierarchicalKeys(), rules, filter, skipUnchanged);
      switch (d.kind()) {
        case COPY -> tasks.addAll(planner.add(o));
        case REJECTED -> rejected.add(new Rejected(o, d.reason()));
        case UNCHANGED -> skipped++;
        default -> { }
      }
    }
    tasks.addAll(planner.finish());
    return new Result(CopyPlan.of(tasks, skipped), rejected);
  }
}
