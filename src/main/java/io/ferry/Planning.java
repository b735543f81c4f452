package io.ferry;

import io.ferry.config.MigrationConfig;
import io.ferry.config.PlanConfig;
import io.ferry.copy.ObjectResult;
import io.ferry.destination.FileDestination;
import io.ferry.destination.KeyPaths;
import io.ferry.destination.UnsafeKeyException;
import io.ferry.plan.CopyPlan;
import io.ferry.plan.CopyPlanner;
import io.ferry.plan.SourceObject;
import io.ferry.source.S3Clients;
import io.ferry.source.S3Errors;
import io.ferry.source.S3Lister;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * LIST and PLAN, on the driver: lists the source, sets aside objects that cannot be written at the destination (unsafe
 * keys; a key that is also a prefix of other keys), skips unchanged ones and plans the rest. No Spark here, so the
 * {@code plan} command (a dry run) needs no cluster.
 */
final class Planning {
  /** The plan, the objects set aside with their reasons, and what the listing saw. */
  record Result(CopyPlan plan, List<ObjectResult> rejected, S3Lister.Counts listing) {}

  private Planning() {}

  static Result plan(MigrationConfig config, FileDestination destination) throws JobFailure {
    var client = S3Clients.control(config.source().endpoint());
    List<SourceObject> listed = new ArrayList<>();
    S3Lister.Counts counts;
    try {
      counts = new S3Lister(client, config.source()).list(listed::add);
    } catch (SdkException e) {
      throw new JobFailure("cannot list " + config.source().describe() + ": " + S3Errors.describe(e)
          + " (check ferry.source.bucket, endpoint and credentials)");
    }
    return triage(listed, counts, config.plan(), destination.root(),
        o -> config.copy().skipUnchanged() && destination.unchanged(o));
  }

  /**
   * Sorts listed objects into the plan and the rejected: unsafe keys, and keys that are also prefixes of other keys
   * ("a" beside "a/b"), which a filesystem cannot hold both of.
   */
  static Result triage(List<SourceObject> listed, S3Lister.Counts counts, PlanConfig planConfig, Path root,
      Predicate<SourceObject> unchanged) {
    Set<String> directories = new HashSet<>();
    for (SourceObject o : listed) {
      String key = o.relativeKey();
      for (int slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) directories.add(key.substring(0, slash));
    }
    List<ObjectResult> rejected = new ArrayList<>();
    CopyPlanner planner = new CopyPlanner(planConfig, unchanged);
    for (SourceObject o : listed) {
      String reason = reject(o, root, directories);
      if (reason == null) {
        planner.add(o);
      } else {
        rejected.add(new ObjectResult(o, "", 0, 0, ObjectResult.Status.FAILED, reason));
      }
    }
    return new Result(planner.finish(), rejected, counts);
  }

  private static String reject(SourceObject o, Path root, Set<String> directories) {
    try {
      KeyPaths.resolve(root, o.relativeKey());
    } catch (UnsafeKeyException e) {
      return "unsafe key, not copied: " + e.getMessage();
    }
    if (directories.contains(o.relativeKey())) {
      return "the key is also a prefix of other keys ('" + o.relativeKey() + "/...'): a filesystem cannot hold a file and a"
          + " directory of one name, so this object was not copied (the keys under it were)";
    }
    return null;
  }
}
