package io.ferry;

import io.ferry.config.DestinationConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.config.PlanConfig;
import io.ferry.config.SourceConfig;
import io.ferry.config.StoreKind;
import io.ferry.copy.CopyMethod;
import io.ferry.copy.ObjectResult;
import io.ferry.destination.FileDestination;
import io.ferry.destination.KeyPaths;
import io.ferry.destination.S3Destination;
import io.ferry.destination.UnsafeKeyException;
import io.ferry.plan.CopyPlan;
import io.ferry.plan.CopyPlanner;
import io.ferry.plan.SourceObject;
import io.ferry.source.FileLister;
import io.ferry.source.S3Clients;
import io.ferry.source.S3Errors;
import io.ferry.source.S3Lister;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * LIST and PLAN, on the driver: lists the source, sets aside objects that cannot be written at a directory
 * destination (unsafe keys; a key that is also a prefix of other keys), skips unchanged ones and plans the rest. No
 * Spark here, so the {@code plan} command (a dry run) needs no cluster.
 */
public final class Planning {
  /** The plan, the objects set aside with their reasons, and what the listing saw. */
  public record Result(CopyPlan plan, List<ObjectResult> rejected, S3Lister.Counts listing) {}

  private Planning() {}

  /** @param source and destination with their paths already absolute */
  static Result plan(MigrationConfig config, SourceConfig source, DestinationConfig destination, String runId) throws JobFailure {
    List<SourceObject> listed = new ArrayList<>();
    S3Lister.Counts counts;
    try {
      counts = source.kind() == StoreKind.FILE
          ? new FileLister(source).list(listed::add)
          : new S3Lister(S3Clients.control(source.endpoint()), source).list(listed::add);
    } catch (SdkException | IOException e) {
      throw new JobFailure("cannot list " + source.describe() + ": " + S3Errors.describe(e)
          + (source.kind() == StoreKind.S3 ? " (check ferry.source.bucket, endpoint and credentials)" : ""));
    }
    Predicate<SourceObject> unchanged = config.copy().skipUnchanged() ? unchanged(destination, runId) : o -> false;
    Path root = destination.kind() == StoreKind.FILE ? Path.of(destination.path()) : null;
    boolean serverSide = CopyMethod.choose(source, destination) == CopyMethod.SERVER_SIDE_COPY;
    return triage(listed, counts, config.plan(), serverSide, root, destination.prefix(), unchanged);
  }

  /**
   * Objects the destination already holds unchanged: for a directory, the same size and modification time; for a
   * bucket (one listing of the destination prefix, not a request per object), the same size and a copy no older
   * than the source.
   */
  private static Predicate<SourceObject> unchanged(DestinationConfig destination, String runId) throws JobFailure {
    if (destination.kind() == StoreKind.FILE) return new FileDestination(Path.of(destination.path()), runId)::unchanged;
    Map<String, long[]> existing = new HashMap<>();
    try {
      new S3Destination(S3Clients.control(destination.endpoint()), destination)
          .list((key, o) -> existing.put(key, new long[] {o.size(), o.lastModifiedMillis()}));
    } catch (SdkException e) {
      throw new JobFailure("cannot list the destination " + destination.describe() + ": " + S3Errors.describe(e)
          + " (check ferry.destination.bucket, endpoint and credentials)");
    }
    return o -> {
      long[] there = existing.get(o.relativeKey());
      return there != null && there[0] == o.size() && there[1] >= o.lastModifiedMillis();
    };
  }

  /**
   * Sorts listed objects into the plan and the rejected. With a directory destination ({@code root} not null):
   * unsafe keys, and keys that are also prefixes of other keys ("a" beside "a/b"), which a filesystem cannot hold
   * both of. With a bucket destination ({@code root} null): keys longer than S3's 1,024 bytes once
   * {@code keyPrefix} is prepended.
   */
  public static Result triage(List<SourceObject> listed, S3Lister.Counts counts, PlanConfig planConfig, boolean serverSide, Path root,
      String keyPrefix, Predicate<SourceObject> unchanged) {
    Set<String> directories = new HashSet<>();
    if (root != null) {
      for (SourceObject o : listed) {
        String key = o.relativeKey();
        for (int slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) directories.add(key.substring(0, slash));
      }
    }
    List<ObjectResult> rejected = new ArrayList<>();
    CopyPlanner planner = new CopyPlanner(planConfig, serverSide, unchanged);
    for (SourceObject o : listed) {
      String reason = root == null ? rejectKey(o, keyPrefix) : reject(o, root, directories);
      if (reason == null) {
        planner.add(o);
      } else {
        rejected.add(new ObjectResult(o, "", 0, 0, ObjectResult.Status.FAILED, reason));
      }
    }
    return new Result(planner.finish(), rejected, counts);
  }

  /** S3's longest key, in UTF-8 bytes. */
  static final int MAX_KEY_BYTES = 1024;

  private static String rejectKey(SourceObject o, String keyPrefix) {
    int bytes = (keyPrefix + o.relativeKey()).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    return bytes <= MAX_KEY_BYTES ? null
        : "the destination key would be " + bytes + " bytes long with ferry.destination.prefix, over S3's 1,024: not copied";
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
