package io.ferry.spark;

import io.ferry.commit.ObjectResult;
import io.ferry.config.BucketConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.config.StoreConfig;
import io.ferry.plan.CopyPlanner;
import io.ferry.plan.CopyTask;
import io.ferry.plan.Decision;
import io.ferry.plan.Keyed;
import io.ferry.plan.PlanTotals;
import io.ferry.plan.Triage;
import io.ferry.store.Capabilities;
import io.ferry.store.Destination;
import io.ferry.store.ListCounts;
import io.ferry.store.listing.ObjectFilter;
import io.ferry.store.StoreObject;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * LIST and PLAN, on the executors: the source listed (or read from a manifest) and, for skipping unchanged objects
 * and deleting extraneous ones, the destination too; the two joined by relative key; each key decided
 * ({@link Triage}) and the objects to copy planned into tasks ({@link CopyPlanner}, per partition). The driver holds
 * the shards, the counts and the totals, never the objects.
 */
public final class Planning {
  /** Objects per partition of the join and the plan. */
  private static final long OBJECTS_PER_PARTITION = 20_000;

  /**
   * A plan spread over the executors (cached there until {@link #close}).
   *
   * @param setAside the rejected and the extraneous objects, with the reasons
   * @param missing objects the manifest names that the source no longer holds
   * @param strays what earlier runs of the job left at the destination outside its ledger (bounded: temp files)
   * @param listedIn how the source was listed: "n shards", or "n pieces of the manifest"
   * @param restoring the rows of the archived objects the RESTORE step left (empty without one): restoring, or failed
   */
  record Planned(JavaRDD<CopyTask> tasks, JavaRDD<Decision> setAside, JavaRDD<StoreObject> missing, PlanTotals totals,
      ListCounts listing, ListCounts existing, long missingCount, List<StoreObject> strays, String listedIn, List<JavaRDD<?>> cached,
      JavaRDD<ObjectResult> restoring) implements AutoCloseable {
    @Override
    public void close() {
      cached.forEach(JavaRDD::unpersist);
    }
  }

  private Planning() {}

  /**
   * @param restore the RESTORE step's context, for a run under {@code source.archived = restore}; null for none (a dry
   *     run sends no restore)
   */
  static Planned plan(MigrationConfig config, CopySettings settings, JavaSparkContext jsc, boolean serverSide,
      RestoreFunction.Context restore, PrintStream out) throws JobFailure {
    int target = Listing.target(config, jsc);
    Destination destination = ExecutorContext.destination(settings);
    Capabilities capabilities = destination.capabilities();
    List<JavaRDD<?>> cached = new ArrayList<>();
    Listing.Counters sourceCounts = new Listing.Counters(jsc, "source");
    jsc.setJobGroup("LIST", "LIST: " + config.source().describe(), true);
    Listing.Sources sources;
    long listed;
    try (Live live = Live.watch(jsc, List.of(sourceCounts.selected, sourceCounts.bytes));
        Console.Progress progress = Console.listing(live, sourceCounts, config.report().progressInterval(), out)) {
      sources = Listing.sources(jsc, settings, target, sourceCounts, cached);
      JavaRDD<StoreObject> objects = sources.objects();
      listed = Actions.run(objects::count, "cannot list " + config.source().describe(), Planning.hint("source", config.source().store()));
    }
    JavaRDD<StoreObject> source = sources.objects();
    JavaRDD<StoreObject> missing = sources.missing();
    String what = sources.description();
    long missingCount = config.source().manifest().isEmpty() ? 0 : missing.count();

    Listing.Counters existingCounts = new Listing.Counters(jsc, "destination");
    JavaRDD<StoreObject> existing = jsc.emptyRDD();
    List<StoreObject> strays = List.of();
    if (config.copy().skipUnchanged() || config.destination().deleteExtraneous()) {
      jsc.setJobGroup("LIST", "LIST: " + config.destination().describe(), true);
      JavaRDD<StoreObject> all = Listing.destination(jsc, settings, target, existingCounts, cached);
      strays = Actions.run(() -> all.mapPartitions(new Keep(settings, Keep.Which.STRAYS)).collect(),
          "cannot list the destination " + config.destination().describe(), Planning.hint("destination", config.destination().store()));
      existing = all.mapPartitions(new Keep(settings, Keep.Which.OBJECTS));
    }

    int partitions = (int) Math.max(jsc.defaultParallelism(), Math.min(100_000, listed / OBJECTS_PER_PARTITION + 1));
    boolean hierarchical = capabilities.hierarchicalKeys();
    // on a destination that folds case, "photo.jpg" and "Photo.JPG" are one file: joined as one key
    boolean folds;
    try {
      folds = destination.foldsCase();
    } catch (java.io.IOException e) {
      throw new JobFailure("cannot tell whether the destination " + config.destination().describe() + " folds case (a probe file could"
          + " not be written): " + io.ferry.store.retry.Failures.describe(e));
    }
    JavaPairRDD<String, Keyed> keyed = source.flatMapToPair(o -> Triage.sides(o, hierarchical,
        folds).stream().map(Planning::tuple).iterator())
        .union(existing.mapToPair(o -> tuple(Triage.side(o, folds))));
    jsc.setJobGroup("PLAN", "PLAN: " + listed + " objects", true);
    JavaRDD<Decision> decisions = cache(keyed.reduceByKey(Keyed::merge, partitions)
        .mapPartitions(new TriageFunction(settings, hierarchical, config.copy().skipUnchanged())), cached);
    JavaRDD<StoreObject> toCopy = decisions.filter(d -> d.kind() == Decision.Kind.COPY).map(Decision::object);
    JavaRDD<ObjectResult> restoring = jsc.emptyRDD();
    if (restore != null) {
      // cached: each archived object is asked once (a recomputed partition would send its restores again)
      JavaRDD<RestoreFunction.Restored> restored = cache(decisions.filter(d -> d.kind() == Decision.Kind.RESTORE)
          .mapPartitions(new RestoreFunction(settings, restore)), cached);
      restoring = restored.filter(r -> r.result() != null).map(RestoreFunction.Restored::result);
      toCopy = toCopy.union(restored.filter(r -> r.readable() != null).map(RestoreFunction.Restored::readable));
    }
    JavaRDD<CopyTask> tasks = cache(toCopy.mapPartitionsWithIndex(new PlanFunction(config.plan(), capabilities, serverSide), true),
        cached);
    PlanTotals totals = decisions.map(PlanTotals::of).fold(PlanTotals.NONE, PlanTotals::plus)
        .plus(tasks.map(PlanTotals::of).fold(PlanTotals.NONE, PlanTotals::plus));
    JavaRDD<Decision> setAside = decisions.filter(d -> d.kind() != Decision.Kind.COPY && d.kind() != Decision.Kind.UNCHANGED
        && d.kind() != Decision.Kind.FILTERED);
    return new Planned(tasks, setAside, missing, totals, sourceCounts.counts(), existingCounts.counts(), missingCount, strays, what,
        cached, restoring);
  }

  private static <K, V> Tuple2<K, V> tuple(java.util.Map.Entry<K, V> e) {
    return new Tuple2<>(e.getKey(), e.getValue());
  }

  private static <T> JavaRDD<T> cache(JavaRDD<T> rdd, List<JavaRDD<?>> cached) {
    cached.add(rdd);
    return rdd.persist(StorageLevel.MEMORY_AND_DISK_SER());
  }

  /** What to check when a side cannot be listed: for a bucket, the settings that reach it. */
  static String hint(String side, StoreConfig store) {
    return store instanceof BucketConfig ? " (check ferry." + side + ".bucket, endpoint and credentials)" : "";
  }

  /** Each key decided by the destination's rules and the job's selection; keys with nothing to do are dropped. */
  static final class TriageFunction implements org.apache.spark.api.java.function.FlatMapFunction<Iterator<Tuple2<String, Keyed>>,
      Decision> {
    private static final long serialVersionUID = 1L;
    private final CopySettings settings;
    private final boolean hierarchical;
    private final boolean skipUnchanged;

    TriageFunction(CopySettings settings, boolean hierarchical, boolean skipUnchanged) {
      this.settings = settings;
      this.hierarchical = hierarchical;
      this.skipUnchanged = skipUnchanged;
    }

    @Override
    public Iterator<Decision> call(Iterator<Tuple2<String, Keyed>> keys) {
      Destination destination = ExecutorContext.destination(settings);
      ObjectFilter filter = new ObjectFilter(settings.source().selection());
      List<Decision> out = new ArrayList<>();
      var archived = settings.source().archived().policy();
      keys.forEachRemaining(t -> out.addAll(Triage.decide(t._2(), hierarchical, destination, filter, skipUnchanged, archived)));
      return out.iterator();
    }
  }

  /** A partition's objects planned into tasks in key order; task ids are the partition's index, then a count. */
  static final class PlanFunction implements org.apache.spark.api.java.function.Function2<Integer, Iterator<StoreObject>,
      Iterator<CopyTask>> {
    private static final long serialVersionUID = 1L;
    private final io.ferry.config.PlanConfig config;
    private final Capabilities capabilities;
    private final boolean serverSide;

    PlanFunction(io.ferry.config.PlanConfig config, Capabilities capabilities, boolean serverSide) {
      this.config = config;
      this.capabilities = capabilities;
      this.serverSide = serverSide;
    }

    @Override
    public Iterator<CopyTask> call(Integer partition, Iterator<StoreObject> input) {
      // in key order: a partition computed again (an executor lost) plans the same tasks, whatever order the join gave
      List<StoreObject> sorted = new ArrayList<>();
      input.forEachRemaining(sorted::add);
      sorted.sort(java.util.Comparator.comparing(StoreObject::key));
      Iterator<StoreObject> objects = sorted.iterator();
      CopyPlanner planner = new CopyPlanner(config, capabilities, serverSide, (long) partition << 32);
      return new Iterator<>() {
        private Iterator<CopyTask> ready = java.util.Collections.emptyIterator();
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
          if (!hasNext()) throw new java.util.NoSuchElementException();
          return ready.next();
        }
      };
    }
  }
}
