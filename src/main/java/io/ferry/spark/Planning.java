package io.ferry.spark;

import io.ferry.config.BucketConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.config.StoreConfig;
import io.ferry.plan.CopyPlan;
import io.ferry.plan.Triage;
import io.ferry.store.Destination;
import io.ferry.store.Failures;
import io.ferry.store.KeyFilter;
import io.ferry.store.ListCounts;
import io.ferry.store.Store;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * LIST and PLAN, on the driver: lists the source, sets aside objects the destination cannot hold, skips unchanged
 * ones and plans the rest ({@link Triage}). No Spark here, so the {@code plan} command (a dry run) needs no cluster.
 */
public final class Planning {
  /**
   * The plan, the objects set aside with their reasons, what the listing saw, and what earlier runs of the job left
   * at the destination outside its ledger (seen while listing it for unchanged objects).
   */
  public record Result(CopyPlan plan, List<Triage.Rejected> rejected, ListCounts listing, List<StoreObject> strays) {}

  private Planning() {}

  static Result plan(MigrationConfig config, Store source, Destination destination, boolean serverSide) throws JobFailure {
    List<StoreObject> listed = new ArrayList<>();
    ListCounts counts;
    try {
      counts = KeyFilter.of(config.source()).list(source.lister(), listed::add);
    } catch (IOException e) {
      throw new JobFailure("cannot list " + config.source().describe() + ": " + Failures.describe(e) + hint("source", config.source().store()));
    }
    List<StoreObject> strays = new ArrayList<>();
    Predicate<StoreObject> unchanged = config.copy().skipUnchanged() ? unchanged(config, destination, strays) : o -> false;
    Triage.Result triage = Triage.plan(listed, config.plan(), destination.capabilities(), serverSide, destination::rejection, unchanged);
    return new Result(triage.plan(), triage.rejected(), counts, strays);
  }

  /** Objects the destination already holds unchanged (its own rule), from one listing of it. */
  private static Predicate<StoreObject> unchanged(MigrationConfig config, Destination destination, List<StoreObject> strays)
      throws JobFailure {
    Map<String, StoreObject> existing = new HashMap<>();
    try {
      destination.existing().list(o -> {
        if (destination.isStray(o)) {
          strays.add(o);
        } else {
          existing.put(o.relativeKey(), o);
        }
      });
    } catch (NoSuchFileException | NotDirectoryException e) {
      return o -> false; // nothing there yet
    } catch (IOException e) {
      throw new JobFailure("cannot list the destination " + config.destination().describe() + ": " + Failures.describe(e)
          + hint("destination", config.destination().store()));
    }
    return o -> {
      StoreObject there = existing.get(o.relativeKey());
      return there != null && destination.unchanged(o, there);
    };
  }

  /** What to check when a side cannot be listed: for a bucket, the settings that reach it. */
  static String hint(String side, StoreConfig store) {
    return store instanceof BucketConfig ? " (check ferry." + side + ".bucket, endpoint and credentials)" : "";
  }
}
