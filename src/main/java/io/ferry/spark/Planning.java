package io.ferry.spark;

import io.ferry.commit.ObjectResult;
import io.ferry.config.ArchivedConfig;
import io.ferry.config.BucketConfig;
import io.ferry.config.DirectoryConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.config.PlanConfig;
import io.ferry.config.StoreConfig;
import io.ferry.copy.SourceProbe;
import io.ferry.plan.CopyPlanner;
import io.ferry.plan.CopyTask;
import io.ferry.plan.Decision;
import io.ferry.plan.Keyed;
import io.ferry.plan.PartSizing;
import io.ferry.plan.PlanTotals;
import io.ferry.plan.Settled;
import io.ferry.plan.Triage;
import io.ferry.plan.Versions;
import io.ferry.report.ReportWriter;
import io.ferry.report.StageTimes;
import io.ferry.report.Units;
import io.ferry.store.Capabilities;
import io.ferry.store.Destination;
import io.ferry.store.ListCounts;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.StoreObject;
import io.ferry.store.file.KeyPaths;
import io.ferry.store.listing.KeySpace;
import io.ferry.store.listing.ObjectFilter;
import io.ferry.store.retry.Failures;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Map.Entry;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
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
   * @param histories under {@code source.versions = all} into a bucket, each key's versions to write, oldest first:
   *     {@code tasks} holds the first of each that is no delete marker, the rest are written in generations after it
   *     ({@code VersionReplay}); null otherwise
   * @param partSizeLine what {@code plan.part-size = auto} chose and from what; null for a fixed part size
   * @param broadcasts the plan's own, destroyed with it
   * @param early what of {@code totals} was handed to an {@link Early} while the listing went on ({@code tasks} holds the
   *     rest)
   */
  record Planned(JavaRDD<CopyTask> tasks, JavaRDD<Decision> setAside, JavaRDD<StoreObject> missing, PlanTotals totals,
      ListCounts listing, ListCounts existing, long missingCount, List<StoreObject> strays, String listedIn, List<JavaRDD<?>> cached,
      JavaRDD<ObjectResult> restoring, JavaRDD<List<StoreObject>> histories, JavaRDD<HardLinks.Link> hardLinks, String partSizeLine,
      List<Broadcast<?>> broadcasts, PlanTotals early) implements AutoCloseable {
    /** What {@code tasks} copy: the totals' tasks less those handed over early. */
    PlanTotals rest() {
      return totals.minus(early);
    }

    /**
     * A replay's line for the console ({@code source.versions = all} into a bucket), or null for none: the keys whose
     * histories are written, in how many generations (the longest of them), and the delete markers among them.
     */
    String replayLine() {
      if (histories == null) return null;
      long[] t = histories.map(h -> new long[] {1, h.size(), h.stream().filter(StoreObject::isDeleteMarker).count()})
          .fold(new long[3], (a, b) -> new long[] {a[0] + b[0], Math.max(a[1], b[1]), a[2] + b[2]});
      return "VERSIONS " + t[0] + " keys' histories written oldest first, in " + t[1] + " generations (the longest), "
          + t[2] + " delete markers among them";
    }

    /** The same plan with other tasks and totals: a later generation of a replay. */
    Planned with(JavaRDD<CopyTask> tasks, PlanTotals totals) {
      return new Planned(tasks, setAside, missing, totals, listing, existing, missingCount, strays, listedIn, cached, restoring,
          histories, hardLinks, partSizeLine, broadcasts, PlanTotals.NONE);
    }

    @Override
    public void close() {
      cached.forEach(JavaRDD::unpersist);
      broadcasts.forEach(b -> b.destroy());
    }
  }

  /**
   * Takes what the plan may copy while the listing goes on ({@code plan.copy-while-listing}): after each of the
   * listing's rounds but its last, the tasks of the objects settled in it ({@link Settled}). Whatever it takes, it
   * copies, or the run fails: the plan leaves those objects out of its own tasks.
   */
  interface Early {
    /**
     * @param tasks computed and checkpointed already
     * @param generation the tasks' ids and ledger files are apart from other rounds' and the plan's (generation 0)
     * @param totals what the tasks copy
     */
    void copy(JavaRDD<CopyTask> tasks, int generation, PlanTotals totals);
  }

  private Planning() {}

  /** The destination's objects and its strays (what earlier runs of the job left outside the ledger: temp files). */
  private record Existing(JavaRDD<StoreObject> objects, List<StoreObject> strays) {}

  /** LIST of the destination, in rounds as the source's. */
  private static Existing existing(MigrationConfig config, CopySettings settings, JavaSparkContext jsc, int target, int pageKeys,
      Listing.Counters counts, List<JavaRDD<?>> cached) throws JobFailure {
    jsc.setJobGroup("LIST", "LIST: " + config.destination().describe(), true);
    JavaRDD<StoreObject> all = Listing.destination(jsc, settings, target, pageKeys, counts, cached);
    List<StoreObject> strays = Actions.run(() -> all.mapPartitions(new Keep(settings, Keep.Which.STRAYS)).collect(),
        "cannot list the destination " + config.destination().describe(), Planning.hint("destination", config.destination().store()));
    return new Existing(all.mapPartitions(new Keep(settings, Keep.Which.OBJECTS)), strays);
  }

  /**
   * The source's listing rounds turned into early copies: each round's objects joined with the destination's and
   * decided as the whole plan decides them, and those {@link Settled} in it planned and handed to {@link Early}.
   */
  private static final class EarlyRounds implements Listing.Rounds {
    /** The most shards (listed and left) of a round handed over: its checks scan them all. */
    static final int MOST_SHARDS = 256;
    /** The tasks of the rounds handed over, and their totals. */
    final List<JavaRDD<CopyTask>> tasks = new ArrayList<>();
    PlanTotals totals = PlanTotals.NONE;
    private final MigrationConfig config;
    private final CopySettings settings;
    private final JavaSparkContext jsc;
    private final Capabilities capabilities;
    private final boolean serverSide;
    private final JavaRDD<StoreObject> existing;
    private final Early early;
    private final List<JavaRDD<?>> cached;

    EarlyRounds(MigrationConfig config, CopySettings settings, JavaSparkContext jsc, Capabilities capabilities, boolean serverSide,
        JavaRDD<StoreObject> existing, Early early, List<JavaRDD<?>> cached) {
      this.config = config;
      this.settings = settings;
      this.jsc = jsc;
      this.capabilities = capabilities;
      this.serverSide = serverSide;
      this.existing = existing;
      this.early = early;
      this.cached = cached;
    }

    @Override
    public void listed(Settled.Round round, JavaRDD<StoreObject> objects) {
      // the settled checks scan the round's shards for every object of the round and of the destination
      if (round.listed().size() + round.left().size() > MOST_SHARDS) return;
      String base = ((BucketConfig) config.source().store()).prefix(); // a source key is its prefix and its relative key
      boolean hierarchical = capabilities.hierarchicalKeys();
      // every object of the round gives its folder marks; only the settled are decided here
      JavaPairRDD<String, Keyed> keyed = objects.flatMapToPair(o -> Triage.sides(o, hierarchical, false).stream().map(Planning::tuple)
          .iterator()).union(existing.filter(o -> Settled.settled(base + o.relativeKey(), round)).mapToPair(o -> tuple(Triage.side(o,
          false))));
      int pageKeys = config.plan().listingPageKeys();
      long most = round.listed().stream().mapToLong(s -> KeySpace.budget(s, KeySpace.PROVEN, pageKeys)).sum() * pageKeys;
      int partitions = (int) Math.max(jsc.defaultParallelism(), Math.min(100_000, most / OBJECTS_PER_PARTITION + 1));
      JavaRDD<StoreObject> settled = keyed.reduceByKey(Keyed::merge, partitions)
          .mapPartitions(new TriageFunction(settings, hierarchical, config.copy().skipUnchanged(), false))
          .filter(d -> d.kind() == Decision.Kind.COPY && Settled.settled(d.object().key(), round)).map(Decision::object);
      int generation = 1 + round.index();
      JavaRDD<CopyTask> planned = cache(settled.mapPartitionsWithIndex(new PlanFunction(config.plan(), capabilities, serverSide,
          generation), true), cached);
      // kept in the run's folder: the copies and the plan's anti-join read the same tasks, even after an executor is lost;
      // written here, on the listing's thread, before the copies' thread or the plan may read them
      planned.checkpoint();
      PlanTotals planTotals = planned.map(PlanTotals::of).fold(PlanTotals.NONE, PlanTotals::plus);
      tasks.add(planned);
      totals = totals.plus(planTotals);
      early.copy(planned, generation, planTotals);
    }
  }

  /**
   * Whether a run may copy while its listing goes on: a listed bucket, without versions or restores; a fixed part
   * size (auto chooses from every object's size); nothing left open by earlier runs ({@code fresh}), whose uploads the
   * plan must first take over or abort. The destination's own rules (case folding, strays) are checked as it is listed.
   */
  static boolean mayCopyWhileListing(MigrationConfig config, boolean fresh) {
    // (into a bucket: a directory's folder may fold case, and keys that differ only in case may settle in different rounds)
    return config.plan().copyWhileListing() && fresh && config.source().store() instanceof BucketConfig b && !b.versions()
        && config.destination().store() instanceof BucketConfig
        && config.source().manifest().isEmpty() && config.source().archived().policy() != ArchivedConfig.Policy.RESTORE
        && !config.plan().autoPartSize();
  }

  /**
   * @param restore the RESTORE step's context, for a run under {@code source.archived = restore}; null for none (a dry
   *     run sends no restore)
   */
  static Planned plan(MigrationConfig config, CopySettings settings, JavaSparkContext jsc, boolean serverSide,
      RestoreFunction.Context restore, PrintStream out) throws JobFailure {
    return plan(config, settings, jsc, serverSide, restore, null, out);
  }

  /**
   * @param checkpoints where a replay of versions keeps its histories while the run writes them (null: a dry run, which
   *     writes nothing)
   */
  static Planned plan(MigrationConfig config, CopySettings settings, JavaSparkContext jsc, boolean serverSide,
      RestoreFunction.Context restore, String checkpoints, PrintStream out) throws JobFailure {
    return plan(config, settings, jsc, serverSide, restore, checkpoints, Map.of(), Map.of(), null, null, out);
  }

  /**
   * @param kept under {@code plan.part-size = auto}, the objects earlier runs left open at this destination, by relative
   *     key: they keep their part size, so that a rerun resumes them whatever auto chooses now
   * @param written the versions earlier replays wrote, by key (the ledger's): what a replay holds already
   * @param stages gets the lap "list" once both sides are listed (null: a dry run, which keeps none)
   * @param early takes what may be copied while the listing goes on, where {@link #mayCopyWhileListing} and the
   *     destination allow (null: nothing is)
   */
  static Planned plan(MigrationConfig config, CopySettings settings, JavaSparkContext jsc, boolean serverSide,
      RestoreFunction.Context restore, String checkpoints, Map<String, CopyPlanner.Kept> kept,
      Map<String, Versions.Known> written, StageTimes stages, Early early, PrintStream out) throws JobFailure {
    int target = Listing.target(config, jsc);
    int pageKeys = config.plan().listingPageKeys();
    Destination destination = ExecutorContext.destination(settings);
    Capabilities capabilities = destination.capabilities();
    List<JavaRDD<?>> cached = new ArrayList<>();
    boolean versions = config.source().store() instanceof BucketConfig b && b.versions();
    boolean replay = versions && config.destination().store() instanceof BucketConfig;
    if (replay) {
      try {
        if (!destination.keepsVersions()) {
          throw new JobFailure("the destination " + config.destination().describe() + " does not keep versions (its versioning is not"
              + " enabled), so it cannot hold the source's histories (source.versions = all): enable versioning on it, or copy into a"
              + " directory, or set source.versions = current");
        }
      } catch (IOException e) {
        throw new JobFailure("cannot tell whether the destination " + config.destination().describe() + " keeps versions: "
            + Failures.describe(e));
      }
    }
    boolean hierarchical = capabilities.hierarchicalKeys();
    // on a destination that folds case, "photo.jpg" and "Photo.JPG" are one file: joined as one key
    boolean folds;
    try {
      folds = destination.foldsCase();
    } catch (IOException e) {
      throw new JobFailure("cannot tell whether the destination " + config.destination().describe() + " folds case (a probe file could"
          + " not be written): " + Failures.describe(e));
    }
    Listing.Counters existingCounts = new Listing.Counters(jsc, "destination");
    Existing existing = new Existing(jsc.emptyRDD(), List.of());
    boolean listsDestination = replay || config.copy().skipUnchanged() || config.destination().deleteExtraneous();
    // copying while the source is listed needs the destination whole first: a key's decision depends on it
    boolean destinationFirst = early != null && !folds;
    EarlyRounds rounds = null;
    if (destinationFirst) {
      if (listsDestination) existing = existing(config, settings, jsc, target, pageKeys, existingCounts, cached);
      // an earlier run's temp file is removed once the plan is made: by then an early copy may be writing at its name
      String marker = KeyPaths.markerName(settings.job()); // this run's own
      if (existing.strays().stream().allMatch(s -> s.relativeKey().equals(marker))) {
        rounds = new EarlyRounds(config, settings, jsc, capabilities, serverSide, existing.objects(), early, cached);
      }
    }

    Listing.Counters sourceCounts = new Listing.Counters(jsc, "source");
    jsc.setJobGroup("LIST", "LIST: " + config.source().describe(), true);
    Listing.Sources sources;
    long listed;
    try (Live live = Live.watch(jsc, List.of(sourceCounts.selected, sourceCounts.bytes));
        Console.Progress progress = Console.listing(live, sourceCounts, config.report().progressInterval(), out)) {
      sources = Listing.sources(jsc, settings, target, pageKeys, sourceCounts, rounds, cached);
      JavaRDD<StoreObject> objects = sources.objects();
      listed = Actions.run(objects::count, "cannot list " + config.source().describe(), Planning.hint("source", config.source().store()));
    }
    JavaRDD<StoreObject> source = sources.objects();
    if (versions && !(config.destination().store() instanceof BucketConfig)) {
      // a key's versions together, so that each gets a name of its own
      source = source.groupBy(StoreObject::key).flatMap(t -> {
        List<StoreObject> history = new ArrayList<>();
        t._2().forEach(history::add);
        return Versions.inDirectory(history).iterator();
      });
    }
    JavaRDD<StoreObject> missing = sources.missing();
    String what = sources.description();
    long missingCount = config.source().manifest().isEmpty() ? 0 : missing.count();
    if (listsDestination && !destinationFirst) existing = existing(config, settings, jsc, target, pageKeys, existingCounts, cached);
    List<StoreObject> strays = existing.strays();

    if (stages != null) stages.lap("list");
    int partitions = (int) Math.max(jsc.defaultParallelism(), Math.min(100_000, listed / OBJECTS_PER_PARTITION + 1));
    if (replay) return replayed(config, settings, jsc, serverSide, capabilities, source, existing.objects(), partitions, sourceCounts,
        existingCounts, missing, missingCount, strays, what, cached, checkpoints, jsc.broadcast(new HashMap<>(written)));
    JavaPairRDD<String, Keyed> keyed = source.flatMapToPair(o -> Triage.sides(o, hierarchical,
        folds).stream().map(Planning::tuple).iterator())
        .union(existing.objects().mapToPair(o -> tuple(Triage.side(o, folds))));
    jsc.setJobGroup("PLAN", "PLAN: " + listed + " objects", true);
    // where keys are paths below a root that keeps case, keys that differ only in case are triaged side by side: a
    // folder of the destination may fold case
    boolean twins = hierarchical && !folds;
    JavaRDD<Decision> triaged = (twins ? keyed.reduceByKey(new FoldedKeys(partitions), Keyed::merge)
        : keyed.reduceByKey(Keyed::merge, partitions))
        .mapPartitions(new TriageFunction(settings, hierarchical, config.copy().skipUnchanged(), twins));
    PlanTotals earlyTotals = PlanTotals.NONE;
    if (rounds != null && !rounds.tasks.isEmpty()) {
      // the keys the early copies took are theirs, whatever this triage says of them: by the keys they took, not by the
      // rule again (a listing computed anew after an executor was lost may differ from the one they were decided on)
      JavaRDD<CopyTask> taken = rounds.tasks.get(0);
      for (int i = 1; i < rounds.tasks.size(); i++) taken = taken.union(rounds.tasks.get(i));
      JavaPairRDD<String, Boolean> keys = taken.flatMap(t -> t.ranges().stream().filter(r -> r.partNumber() == 1)
          .map(r -> r.object().relativeKey()).iterator()).mapToPair(k -> new Tuple2<>(k, Boolean.TRUE));
      triaged = triaged.keyBy(d -> d.object().relativeKey()).subtractByKey(keys, partitions).values();
      earlyTotals = rounds.totals;
    }
    JavaRDD<Decision> decisions = cache(triaged, cached);
    JavaRDD<StoreObject> toCopy = decisions.filter(d -> d.kind() == Decision.Kind.COPY).map(Decision::object);
    JavaRDD<HardLinks.Link> hardLinks = null;
    if (config.source().store() instanceof DirectoryConfig d && d.hardLinks()) {
      JavaRDD<HardLinks.Named> named = cache(HardLinks.plan(decisions, settings, partitions), cached);
      toCopy = named.filter(n -> n.copy() != null).map(HardLinks.Named::copy);
      hardLinks = named.filter(n -> n.link() != null).map(HardLinks.Named::link);
    }
    JavaRDD<ObjectResult> restoring = jsc.emptyRDD();
    if (restore != null) {
      // cached: each archived object is asked once (a recomputed partition would send its restores again)
      JavaRDD<RestoreFunction.Restored> restored = cache(decisions.filter(d -> d.kind() == Decision.Kind.RESTORE)
          .mapPartitions(new RestoreFunction(settings, restore)), cached);
      restoring = restored.filter(r -> r.result() != null).map(RestoreFunction.Restored::result);
      toCopy = toCopy.union(restored.filter(r -> r.readable() != null).map(RestoreFunction.Restored::readable));
    }
    PlanConfig planConfig = config.plan();
    String partSizeLine = null;
    Broadcast<Map<String, CopyPlanner.Kept>> keep = null;
    if (planConfig.autoPartSize() && !serverSide) {
      StringBuilder line = new StringBuilder();
      planConfig = autoPartSize(planConfig, settings, jsc, toCopy, (long) jsc.defaultParallelism() * config.copy().streamsPerTask(), line);
      partSizeLine = line.toString();
      if (!kept.isEmpty()) keep = jsc.broadcast(new HashMap<>(kept)); // destroyed with the plan's cache (close)
    }
    JavaRDD<CopyTask> tasks = cache(toCopy.mapPartitionsWithIndex(new PlanFunction(planConfig, capabilities, serverSide, 0, keep), true),
        cached);
    PlanTotals totals = decisions.map(PlanTotals::of).fold(PlanTotals.NONE, PlanTotals::plus)
        .plus(tasks.map(PlanTotals::of).fold(PlanTotals.NONE, PlanTotals::plus)).plus(earlyTotals);
    JavaRDD<Decision> setAside = decisions.filter(d -> d.kind() != Decision.Kind.COPY && d.kind() != Decision.Kind.UNCHANGED
        && d.kind() != Decision.Kind.FILTERED);
    return new Planned(tasks, setAside, missing, totals, sourceCounts.counts(), existingCounts.counts(), missingCount, strays, what,
        cached, restoring, null, hardLinks, partSizeLine, keep == null ? List.of() : List.of(keep), earlyTotals);
  }

  /**
   * PLAN of a replay ({@code source.versions = all} into a bucket): each key's versions and the destination's joined,
   * and what follows the versions the destination holds written in generations, oldest first ({@link Versions#replay}).
   */
  private static Planned replayed(MigrationConfig config, CopySettings settings, JavaSparkContext jsc, boolean serverSide,
      Capabilities capabilities, JavaRDD<StoreObject> source, JavaRDD<StoreObject> existing, int partitions,
      Listing.Counters sourceCounts, Listing.Counters existingCounts, JavaRDD<StoreObject> missing, long missingCount,
      List<StoreObject> strays, String what, List<JavaRDD<?>> cached, String checkpoints,
      Broadcast<Map<String, Versions.Known>> written) {
    jsc.setJobGroup("PLAN", "PLAN: the versions of each key", true);
    JavaRDD<Tuple2<List<Decision>, List<StoreObject>>> replays = cache(source.keyBy(StoreObject::relativeKey)
        .cogroup(existing.keyBy(StoreObject::relativeKey), partitions)
        .mapPartitions(new ReplayFunction(settings, written)), cached);
    JavaRDD<Decision> decisions = replays.flatMap(t -> t._1().iterator());
    JavaRDD<List<StoreObject>> histories = cache(replays.map(Tuple2::_2).filter(h -> !h.isEmpty()), cached);
    if (checkpoints != null) {
      // kept in the run's folder: computed again from a new listing of the destination (an executor lost), each history
      // would start at what the generations already wrote, and a generation's index would pass over versions
      jsc.setCheckpointDir(checkpoints);
      histories.checkpoint();
    }
    JavaRDD<CopyTask> tasks = cache(generation(histories, 0).mapPartitionsWithIndex(new PlanFunction(config.plan(), capabilities,
        serverSide, 0), true), cached);
    // what the plan says it copies: every version to write, of every generation
    PlanTotals totals = decisions.map(PlanTotals::of).fold(PlanTotals.NONE, PlanTotals::plus)
        .plus(histories.flatMap(List::iterator).filter(o -> !o.isDeleteMarker())
            .mapPartitionsWithIndex(new PlanFunction(config.plan(), capabilities, serverSide, 0), true)
            .map(PlanTotals::of).fold(PlanTotals.NONE, PlanTotals::plus));
    JavaRDD<Decision> setAside = decisions.filter(d -> d.kind() != Decision.Kind.UNCHANGED && d.kind() != Decision.Kind.FILTERED);
    return new Planned(tasks, setAside, missing, totals, sourceCounts.counts(), existingCounts.counts(), missingCount, strays, what,
        cached, jsc.emptyRDD(), histories, null, null, List.of(written), PlanTotals.NONE);
  }

  /**
   * Where a replay keeps its histories, and copies made while listing their tasks and results, while the run goes on
   * (deleted at its end): what is written must never be computed again.
   */
  static String checkpoints(JavaSparkContext jsc, MigrationConfig config, CopySettings settings) throws IOException {
    return new ReportWriter(jsc.hadoopConfiguration(), config.reportPath(), config.jobName(), settings.runId())
        .qualifiedRunDirectory() + "/.checkpoints";
  }

  /** The versions of generation {@code g} that are objects (its delete markers are written apart): the g-th of each history. */
  static JavaRDD<StoreObject> generation(JavaRDD<List<StoreObject>> histories, int g) {
    return histories.filter(h -> h.size() > g && !h.get(g).isDeleteMarker()).map(h -> h.get(g));
  }

  /** Each key's versions replayed against the destination's: decisions for the plan, and the versions to write in order. */
  static final class ReplayFunction implements FlatMapFunction<
      Iterator<Tuple2<String, Tuple2<Iterable<StoreObject>, Iterable<StoreObject>>>>, Tuple2<List<Decision>, List<StoreObject>>> {
    private static final long serialVersionUID = 1L;
    private final CopySettings settings;
    /** What the ledger knows of earlier replays, by key. */
    private final Broadcast<Map<String, Versions.Known>> known;

    ReplayFunction(CopySettings settings, Broadcast<Map<String, Versions.Known>> known) {
      this.settings = settings;
      this.known = known;
    }

    @Override
    public Iterator<Tuple2<List<Decision>, List<StoreObject>>> call(
        Iterator<Tuple2<String, Tuple2<Iterable<StoreObject>, Iterable<StoreObject>>>> keys) {
      Destination destination = ExecutorContext.destination(settings);
      ObjectFilter filter = new ObjectFilter(settings.source().selection());
      List<Tuple2<List<Decision>, List<StoreObject>>> out = new ArrayList<>();
      keys.forEachRemaining(t -> {
        List<StoreObject> source = new ArrayList<>();
        List<Decision> decisions = new ArrayList<>();
        for (StoreObject o : t._2()._1()) {
          if (!filter.selectsKey(o)) continue;
          if (o.isDeleteMarker() || filter.inRanges(o)) {
            source.add(o);
          } else {
            decisions.add(Decision.of(Decision.Kind.FILTERED, o));
          }
        }
        if (source.isEmpty()) {
          out.add(new Tuple2<>(decisions, List.of()));
          return;
        }
        List<StoreObject> existing = new ArrayList<>();
        t._2()._2().forEach(existing::add);
        String rejected = destination.rejection(source.get(0));
        Versions.Replay replay = rejected != null ? null : Versions.replay(source, existing, known.value().getOrDefault(t._1(),
            Versions.Known.NONE));
        String why = rejected != null ? rejected : replay.conflict();
        if (why != null) {
          decisions.add(new Decision(Decision.Kind.REJECTED, source.stream().filter(o -> o.age() == 0).findFirst()
              .orElse(source.get(0)), why));
          out.add(new Tuple2<>(decisions, List.of()));
          return;
        }
        for (int i = 0; i < replay.held(); i++) decisions.add(Decision.of(Decision.Kind.UNCHANGED, source.get(0)));
        replay.toWrite().forEach(o -> decisions.add(Decision.of(Decision.Kind.COPY, o)));
        out.add(new Tuple2<>(decisions, replay.toWrite()));
      });
      return out.iterator();
    }
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

  private static <T> JavaRDD<T> cache(JavaRDD<T> rdd, List<JavaRDD<?>> cached) {
    cached.add(rdd);
    return rdd.persist(StorageLevel.MEMORY_AND_DISK_SER());
  }

  /** What to check when a side cannot be listed: for a bucket, the settings that reach it. */
  static String hint(String side, StoreConfig store) {
    return store instanceof BucketConfig ? " (check ferry." + side + ".bucket, endpoint and credentials)" : "";
  }

  /** Each key decided by the destination's rules and the job's selection; keys with nothing to do are dropped. */
  static final class TriageFunction implements FlatMapFunction<Iterator<Tuple2<String, Keyed>>,
      Decision> {
    private static final long serialVersionUID = 1L;
    private final CopySettings settings;
    private final boolean hierarchical;
    private final boolean skipUnchanged;
    /** Keys that differ only in case share the partition ({@link FoldedKeys}): those one file here are rejected, all of them. */
    private final boolean twins;

    TriageFunction(CopySettings settings, boolean hierarchical, boolean skipUnchanged, boolean twins) {
      this.settings = settings;
      this.hierarchical = hierarchical;
      this.skipUnchanged = skipUnchanged;
      this.twins = twins;
    }

    @Override
    public Iterator<Decision> call(Iterator<Tuple2<String, Keyed>> keys) throws IOException {
      Destination destination = ExecutorContext.destination(settings);
      ObjectFilter filter = new ObjectFilter(settings.source().selection());
      List<Decision> out = new ArrayList<>();
      var archived = settings.source().archived().policy();
      Triage.Restamp restamp = restamp(settings);
      keys.forEachRemaining(t -> out.addAll(Triage.decide(t._2(), hierarchical, destination, filter, skipUnchanged, archived, restamp)));
      return (twins ? Triage.oneFileApart(out, destination) : out).iterator();
    }
  }

  /**
   * Into a directory from a bucket, the time a copy was given: the object's {@code mtime} metadata where it has one
   * (rclone's, Ferry's from a directory), read with a HEAD, else its listed time.
   */
  static Triage.Restamp restamp(CopySettings settings) {
    if (!(settings.source().store() instanceof BucketConfig && settings.destination().store() instanceof DirectoryConfig)) {
      return Triage.Restamp.NONE;
    }
    var reader = ExecutorContext.source(settings).reader();
    var retrier = ExecutorContext.retrier(settings);
    return source -> {
      ObjectMetadata metadata = retrier.call(() -> reader.metadata(source, false));
      for (Map.Entry<String, String> e : metadata.userMetadata().entrySet()) {
        if (!e.getKey().equalsIgnoreCase(ObjectMetadata.MTIME)) continue;
        long millis = ObjectMetadata.mtimeMillis(e.getValue());
        return millis == Long.MIN_VALUE ? source : source.withTime(millis);
      }
      return source;
    };
  }

  /** A partition's objects planned into tasks in key order; task ids are the partition's index, then a count. */
  static final class PlanFunction implements Function2<Integer, Iterator<StoreObject>,
      Iterator<CopyTask>> {
    private static final long serialVersionUID = 1L;
    private final PlanConfig config;
    private final Capabilities capabilities;
    private final boolean serverSide;
    private final int generation;
    private final Broadcast<Map<String, CopyPlanner.Kept>> kept;

    /** @param generation of a replay's versions: its tasks' ids are apart from other generations' */
    PlanFunction(PlanConfig config, Capabilities capabilities, boolean serverSide, int generation) {
      this(config, capabilities, serverSide, generation, null);
    }

    /** @param kept part sizes objects keep ({@link CopyPlanner}); null for none */
    PlanFunction(PlanConfig config, Capabilities capabilities, boolean serverSide, int generation,
        Broadcast<Map<String, CopyPlanner.Kept>> kept) {
      this.config = config;
      this.capabilities = capabilities;
      this.serverSide = serverSide;
      this.generation = generation;
      this.kept = kept;
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
          kept == null ? Map.of() : kept.value());
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
}
