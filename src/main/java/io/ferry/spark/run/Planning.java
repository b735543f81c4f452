package io.ferry.spark.run;

import io.ferry.config.BucketConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.config.PlanConfig;
import io.ferry.copy.SourceProbe;
import io.ferry.ledger.LedgerRecords;
import io.ferry.plan.CopyPlanner;
import io.ferry.plan.CopyTask;
import io.ferry.plan.Decision;
import io.ferry.plan.Keyed;
import io.ferry.plan.PartSizing;
import io.ferry.plan.PlanTotals;
import io.ferry.plan.Triage;
import io.ferry.plan.Versions;
import io.ferry.report.Units;
import io.ferry.spark.Actions;
import io.ferry.spark.CopySettings;
import io.ferry.spark.ExecutorContext;
import io.ferry.spark.FoldedKeys;
import io.ferry.spark.Held;
import io.ferry.spark.JobFailure;
import io.ferry.spark.ListedEntries;
import io.ferry.spark.Listing;
import io.ferry.spark.Live;
import io.ferry.spark.LookupFunction;
import io.ferry.spark.PlanFunction;
import io.ferry.spark.ReplayFunction;
import io.ferry.spark.TriageFunction;
import io.ferry.store.Capabilities;
import io.ferry.store.Destination;
import io.ferry.store.StoreObject;
import io.ferry.store.retry.Failures;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Map.Entry;
import java.util.Optional;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import scala.Tuple2;

/**
 * LIST and PLAN, on the executors: the source listed (or read from a manifest) and, for skipping unchanged objects
 * and deleting extraneous ones, the destination too; the two joined by relative key; each key decided
 * ({@link Triage}) and the objects to copy planned into tasks ({@link CopyPlanner}, per partition). The driver holds
 * the shards, the counts and the totals, never the objects.
 */
final class Planning {
  /** Objects per partition of the join and the plan. */
  private static final long OBJECTS_PER_PARTITION = 20_000;

  private Planning() {}

  /** The destination's objects and its strays (what earlier runs of the job left outside the ledger: temp files). */
  private record Existing(JavaRDD<StoreObject> objects, List<StoreObject> strays) {}

  /** LIST of the destination, in rounds as the source's. */
  private static Existing existing(RunContext run, Listing.Paging paging, Listing.Counters counts, Held cache) throws JobFailure {
    MigrationConfig config = run.config();
    run.jsc().setJobGroup("LIST", "LIST: " + config.destination().describe(), true);
    JavaRDD<StoreObject> all = Listing.destination(run.jsc(), run.settings(), paging, counts, cache);
    List<StoreObject> strays = Actions.run(() -> all.mapPartitions(new ListedEntries(run.settings(), ListedEntries.Which.STRAYS)).collect(),
        "cannot list the destination " + config.destination().describe(), Listing.hint("destination", config.destination().store()));
    return new Existing(all.mapPartitions(new ListedEntries(run.settings(), ListedEntries.Which.OBJECTS)), strays);
  }

  /** LIST and PLAN, with what the run's modes make of the decisions. */
  static Planned plan(RunContext run, Modes modes) throws JobFailure, IOException {
    Held cache = new Held();
    try {
      return plan(run, modes, cache);
    } catch (JobFailure | IOException | RuntimeException e) {
      cache.close();
      throw e;
    }
  }

  private static Planned plan(RunContext run, Modes modes, Held cache) throws JobFailure, IOException {
    if (modes.replay().isPresent()) checkKeepsVersions(run.config(), run.destination());
    boolean folds = foldsCase(run);
    Listed both = list(run, modes, cache, folds);
    if (modes.replay().isPresent()) return replayed(run, modes.replay().get(), both);
    return triaged(run, modes, both, folds);
  }

  /** Whether the destination folds case: on one that does, "photo.jpg" and "Photo.JPG" are one file, joined as one key. */
  private static boolean foldsCase(RunContext run) throws JobFailure {
    try {
      return run.destination().foldsCase();
    } catch (IOException e) {
      throw new JobFailure("cannot tell whether the destination " + run.config().destination().describe() + " folds case (a probe file"
          + " could not be written): " + Failures.describe(e));
    }
  }

  /** LIST: the source (with its progress line), then the destination where the job needs it. */
  private static Listed list(RunContext run, Modes modes, Held cache, boolean folds) throws JobFailure {
    if (modes.delta().isPresent()) return lookedUp(run, modes.delta().get(), cache, folds);
    MigrationConfig config = run.config();
    JavaSparkContext jsc = run.jsc();
    Listing.Paging paging = Listing.Paging.of(config, jsc);
    Listing.Counters sourceCounts = new Listing.Counters(jsc, "source");
    jsc.setJobGroup("LIST", "LIST: " + config.source().describe(), true);
    Listing.Sources sources;
    long listed;
    try (Live live = Live.watch(jsc, List.of(sourceCounts.selected, sourceCounts.bytes));
        Console.Progress progress = Console.listing(live, sourceCounts, config.report().progressInterval(), run.out())) {
      sources = Listing.sources(jsc, run.settings(), paging, sourceCounts, cache);
      JavaRDD<StoreObject> objects = sources.objects();
      listed = Actions.run(objects::count, "cannot list " + config.source().describe(), Listing.hint("source", config.source().store()));
    }
    JavaRDD<StoreObject> source = sources.objects();
    if (config.source().store() instanceof BucketConfig b && b.versions() && modes.replay().isEmpty()) {
      // into a directory, a key's versions together, so that each gets a name of its own
      source = source.groupBy(StoreObject::key).flatMap(t -> {
        List<StoreObject> history = new ArrayList<>();
        t._2().forEach(history::add);
        return Versions.inDirectory(history).iterator();
      });
    }
    long missingCount = config.source().manifest().isEmpty() ? 0 : sources.missing().count();
    Listing.Counters existingCounts = new Listing.Counters(jsc, "destination");
    boolean listsDestination = modes.replay().isPresent() || config.copy().skipUnchanged() || config.destination().deleteExtraneous();
    Existing existing = listsDestination ? existing(run, paging, existingCounts, cache) : new Existing(jsc.emptyRDD(), List.of());
    run.stages().lap("list");
    int partitions = (int) Math.max(jsc.defaultParallelism(), Math.min(100_000, listed / OBJECTS_PER_PARTITION + 1));
    return new Listed(source, listed, existing, partitions, new Planned.Notes(sourceCounts.counts(), existingCounts.counts(),
        sources.description(), Optional.empty()), sources.missing(), missingCount, cache);
  }

  /**
   * A delta pass's LIST: the keys its events name looked up on both sides, neither listed; what the destination holds of
   * a key the source no longer has is extraneous, as a listing would find it.
   */
  private static Listed lookedUp(RunContext run, Delta delta, Held cache, boolean folds) throws JobFailure {
    MigrationConfig config = run.config();
    if (folds) {
      // a lookup of "Foo.txt" there finds "foo.txt": only a listing tells keys that differ in case apart
      throw new JobFailure("the destination " + config.destination().describe() + " folds case, and a delta pass looks keys up one"
          + " by one, which cannot tell keys that differ only in case apart: run full passes (source.changes = listing)");
    }
    JavaSparkContext jsc = run.jsc();
    JavaRDD<String> keys = delta.keys(run, cache);
    Listing.Counters sourceCounts = new Listing.Counters(jsc, "source");
    Listing.Counters existingCounts = new Listing.Counters(jsc, "destination");
    jsc.setJobGroup("LIST", "LIST: the changed keys, looked up on both sides", true);
    JavaRDD<LookupFunction.Found> found = cache.persist(keys.mapPartitions(new LookupFunction(run.settings(), sourceCounts,
        existingCounts)));
    long looked = Actions.run(found::count, "cannot look up the changed keys at " + config.source().describe() + " and "
        + config.destination().describe(), Listing.hint("source", config.source().store()));
    delta.lookedUp(found);
    JavaRDD<StoreObject> source = found.filter(f -> f.source() != null).map(LookupFunction.Found::source);
    JavaRDD<StoreObject> existing = found.filter(f -> f.destination() != null).map(LookupFunction.Found::destination);
    run.stages().lap("list");
    long listed = sourceCounts.selected.value();
    int partitions = (int) Math.max(jsc.defaultParallelism(), Math.min(100_000, listed / OBJECTS_PER_PARTITION + 1));
    return new Listed(source, listed, new Existing(existing, List.of()), partitions, new Planned.Notes(sourceCounts.counts(),
        existingCounts.counts(), looked + " changed keys looked up", Optional.empty()), jsc.emptyRDD(), 0, cache);
  }

  /** PLAN: each key decided, what the modes make of the decisions, and the objects to copy planned into tasks. */
  private static Planned triaged(RunContext run, Modes modes, Listed both, boolean folds) throws JobFailure, IOException {
    MigrationConfig config = run.config();
    CopySettings settings = run.settings();
    JavaSparkContext jsc = run.jsc();
    Held cache = both.cache();
    Capabilities capabilities = run.destination().capabilities();
    boolean hierarchical = capabilities.hierarchicalKeys();
    int partitions = both.partitions();
    JavaPairRDD<String, Keyed> keyed = both.source().flatMapToPair(o -> Triage.sides(o, hierarchical, folds).stream()
        .map(Planning::tuple).iterator()).union(both.existing().objects().mapToPair(o -> tuple(Triage.side(o, folds))));
    jsc.setJobGroup("PLAN", "PLAN: " + both.listed() + " objects", true);
    // where keys are paths below a root that keeps case, keys that differ only in case are triaged side by side: a
    // folder of the destination may fold case
    boolean twins = hierarchical && !folds;
    JavaRDD<Decision> decisions = cache.persist((twins ? keyed.reduceByKey(new FoldedKeys(partitions), Keyed::merge)
        : keyed.reduceByKey(Keyed::merge, partitions))
        .mapPartitions(new TriageFunction(settings, hierarchical, config.copy().skipUnchanged(), twins)));
    Mode.Chosen chosen = modes.chosen(run, decisions, new Mode.Chosen(decisions.filter(d -> d.kind() == Decision.Kind.COPY)
        .map(Decision::object), jsc.emptyRDD(), jsc.emptyRDD()), cache);
    JavaRDD<StoreObject> toCopy = chosen.toCopy();
    PlanConfig planConfig = config.plan();
    Planned.Notes notes = both.notes();
    Broadcast<Map<String, CopyPlanner.OpenedBefore>> keep = null;
    if (planConfig.autoPartSize() && !run.serverSide()) {
      StringBuilder line = new StringBuilder();
      planConfig = autoPartSize(planConfig, settings, jsc, toCopy, (long) jsc.defaultParallelism() * config.copy().streamsPerTask(), line);
      notes = new Planned.Notes(notes.listing(), notes.existing(), notes.listedIn(), Optional.of(line.toString()));
      Map<String, CopyPlanner.OpenedBefore> kept = MigrationJob.openedBefore(run);
      if (!kept.isEmpty()) keep = cache.broadcast(jsc.broadcast(new HashMap<>(kept)));
    }
    JavaRDD<CopyTask> tasks = cache.persist(toCopy.mapPartitionsWithIndex(new PlanFunction(planConfig, capabilities, run.serverSide(), 0,
        keep), true));
    PlanTotals totals = decisions.map(PlanTotals::of).fold(PlanTotals.NONE, PlanTotals::plus)
        .plus(tasks.map(PlanTotals::of).fold(PlanTotals.NONE, PlanTotals::plus));
    JavaRDD<Decision> setAside = decisions.filter(d -> d.kind() != Decision.Kind.COPY && d.kind() != Decision.Kind.UNCHANGED
        && d.kind() != Decision.Kind.FILTERED);
    return new Planned(new Planned.Plan(tasks, totals), new Planned.SetAside(setAside, both.missing(), both.missingCount(),
        chosen.restoring()), notes, both.existing().strays(), jsc.emptyRDD(), chosen.links(), cache);
  }

  /** Both sides listed: what PLAN starts from. */
  private record Listed(JavaRDD<StoreObject> source, long listed, Existing existing, int partitions, Planned.Notes notes,
      JavaRDD<StoreObject> missing, long missingCount, Held cache) {}

  /** A replay needs a destination that keeps versions. */
  private static void checkKeepsVersions(MigrationConfig config, Destination destination) throws JobFailure {
    try {
      if (!VersionReplay.keepsVersions(destination)) {
        throw new JobFailure("the destination " + config.destination().describe() + " does not keep versions (its versioning is not"
            + " enabled), so it cannot hold the source's histories (source.versions = all): enable versioning on it, or copy into a"
            + " directory, or set source.versions = current");
      }
    } catch (IOException e) {
      throw new JobFailure("cannot tell whether the destination " + config.destination().describe() + " keeps versions: "
          + Failures.describe(e));
    }
  }

  /**
   * PLAN of a replay ({@code source.versions = all} into a bucket): each key's versions and the destination's joined,
   * and what follows the versions the destination holds written in generations, oldest first ({@link Versions#replay}).
   */
  private static Planned replayed(RunContext run, VersionReplay replay, Listed listed) throws IOException {
    JavaSparkContext jsc = run.jsc();
    Held cache = listed.cache();
    Capabilities capabilities = run.destination().capabilities();
    jsc.setJobGroup("PLAN", "PLAN: the versions of each key", true);
    Broadcast<Map<String, Versions.Known>> written = cache.broadcast(jsc.broadcast(new HashMap<>(LedgerRecords.replays(run.earlier()))));
    JavaRDD<Tuple2<List<Decision>, List<StoreObject>>> replays = cache.persist(listed.source().keyBy(StoreObject::relativeKey)
        .cogroup(listed.existing().objects().keyBy(StoreObject::relativeKey), listed.partitions())
        .mapPartitions(new ReplayFunction(run.settings(), written)));
    JavaRDD<Decision> decisions = replays.flatMap(t -> t._1().iterator());
    JavaRDD<List<StoreObject>> histories = cache.persist(replays.map(Tuple2::_2).filter(h -> !h.isEmpty()));
    replay.keep(run, histories);
    PlanConfig plan = run.config().plan();
    JavaRDD<CopyTask> tasks = cache.persist(generation(histories, 0).mapPartitionsWithIndex(new PlanFunction(plan, capabilities,
        run.serverSide(), 0), true));
    // what the plan says it copies: every version to write, of every generation
    PlanTotals totals = decisions.map(PlanTotals::of).fold(PlanTotals.NONE, PlanTotals::plus)
        .plus(histories.flatMap(List::iterator).filter(o -> !o.isDeleteMarker())
            .mapPartitionsWithIndex(new PlanFunction(plan, capabilities, run.serverSide(), 0), true)
            .map(PlanTotals::of).fold(PlanTotals.NONE, PlanTotals::plus));
    JavaRDD<Decision> setAside = decisions.filter(d -> d.kind() != Decision.Kind.UNCHANGED && d.kind() != Decision.Kind.FILTERED);
    return new Planned(new Planned.Plan(tasks, totals), new Planned.SetAside(setAside, listed.missing(), listed.missingCount(),
        jsc.emptyRDD()), listed.notes(), listed.existing().strays(), histories, jsc.emptyRDD(), cache);
  }

  /** The versions of generation {@code g} that are objects (its delete markers are written apart): the g-th of each history. */
  static JavaRDD<StoreObject> generation(JavaRDD<List<StoreObject>> histories, int g) {
    return histories.filter(h -> h.size() > g && !h.get(g).isDeleteMarker()).map(h -> h.get(g));
  }


  private static <K, V> Tuple2<K, V> tuple(Entry<K, V> e) {
    return new Tuple2<>(e.getKey(), e.getValue());
  }

  /**
   * {@code plan.part-size = auto}: the bytes to copy by size class, and one stream's first byte and rate measured on
   * the largest object by an executor ({@link SourceProbe}; none where it cannot be read), into {@link PartSizing#auto};
   * {@code line} gets what it chose and from what.
   */
  private static PlanConfig autoPartSize(PlanConfig plan, CopySettings settings, JavaSparkContext jsc, JavaRDD<StoreObject> toCopy,
      long streams, StringBuilder line) {
    jsc.setJobGroup("PLAN", "PLAN: part-size = auto, the sizes to copy and one stream's probe of the source", true);
    long[] bySize = toCopy.aggregate(new long[64], (a, o) -> {
      a[PartSizing.sizeClass(o.size())] += o.size();
      return a;
    }, (a, b) -> {
      for (int k = 0; k < a.length; k++) a[k] += b[k];
      return a;
    });
    List<StoreObject> largest = toCopy.top(1, new BySize());
    SourceProbe probe = largest.isEmpty() ? SourceProbe.NONE : jsc.parallelize(largest, 1).map(o -> {
      try {
        return SourceProbe.measure(ExecutorContext.source(settings).reader(), o);
      } catch (IOException | RuntimeException e) { // the copy reports what fails; the size falls back to the start
        return SourceProbe.none("the probe of " + o.key() + " failed: " + Failures.describe(e));
      }
    }).collect().get(0);
    long chosen = PartSizing.auto(bySize, streams, probe.firstByteSeconds(), probe.bytesPerSecond(), plan.partSize());
    line.append("auto: ").append(Units.bytes(chosen)).append(probe.measured() ? String.format(Locale.ROOT,
        " (one stream waited %.0f ms for a first byte and then read %.1f MB/s", probe.firstByteSeconds() * 1000,
        probe.bytesPerSecond() / 1e6) : " (nothing measured: " + probe.problem()).append("; ")
        .append(Units.bytes(PartSizing.bytesAbove(bySize, chosen))).append(" in objects of its size or more, for ").append(streams)
        .append(" streams)");
    return plan.withPartSize(chosen);
  }

  /** Objects by size (a serializable order for {@code top}). */
  static final class BySize implements Comparator<StoreObject>, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(StoreObject a, StoreObject b) {
      return Long.compare(a.size(), b.size());
    }
  }



}
