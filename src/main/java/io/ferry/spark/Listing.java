package io.ferry.spark;

import io.ferry.changes.InventoryDiff;
import io.ferry.config.BucketConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.config.SourceConfig;
import io.ferry.config.StoreConfig;
import io.ferry.manifest.ManifestPart;
import io.ferry.manifest.Manifests;
import io.ferry.store.ListCounts;
import io.ferry.store.Shard;
import io.ferry.store.StoreObject;
import io.ferry.store.limits.Meters;
import io.ferry.store.listing.KeySpace;
import io.ferry.store.retry.Failures;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * LIST on the executors: a store's key space split into shards on the driver (a few requests), each shard listed by
 * an executor thread; or a manifest's pieces read by the executors. The driver holds the shards and counters, never
 * the objects.
 */
public final class Listing {
  /** What the listing tasks saw, added up (read after an action; a task run twice may count twice). */
  public static final class Counters implements Serializable {
    private static final long serialVersionUID = 1L;
    public final LongAccumulator listed;
    public final LongAccumulator selected;
    public final LongAccumulator markers;
    public final LongAccumulator filtered;
    public final LongAccumulator pages;
    public final LongAccumulator bytes;
    /** Shards listed so far, on the driver. */
    public final transient AtomicLong shards = new AtomicLong();

    public Counters(JavaSparkContext jsc, String side) {
      listed = jsc.sc().longAccumulator("ferry.list." + side + ".listed");
      selected = jsc.sc().longAccumulator("ferry.list." + side + ".objects");
      markers = jsc.sc().longAccumulator("ferry.list." + side + ".folder-markers");
      filtered = jsc.sc().longAccumulator("ferry.list." + side + ".filtered");
      pages = jsc.sc().longAccumulator("ferry.list." + side + ".pages");
      bytes = jsc.sc().longAccumulator("ferry.list." + side + ".bytes");
    }

    void add(ListCounts c) {
      listed.add(c.listed());
      markers.add(c.folderMarkers());
      filtered.add(c.filteredOut());
      pages.add(c.pages());
    }

    public ListCounts counts() {
      return new ListCounts(listed.value(), selected.value(), markers.value(), filtered.value(), pages.value());
    }
  }

  private Listing() {}

  /**
   * How a listing goes.
   *
   * @param target shards to list: {@code plan.listing-shards}, or twice the listing streams the cluster runs at once
   * @param pageKeys keys asked for in each LIST page
   */
  public record Paging(int target, int pageKeys) {
    public static Paging of(MigrationConfig config, JavaSparkContext jsc) {
      int configured = config.plan().listingShards();
      int target = configured > 0 ? configured
          : (int) Math.min(100_000, Math.max(16, 2L * jsc.defaultParallelism() * config.copy().streamsPerTask()));
      return new Paging(target, config.plan().listingPageKeys());
    }
  }

  /** The source's shards, found on the driver; its requests are counted as the listing's pages. */
  public static List<Shard> sourceShards(CopySettings settings, int target, Counters counters) throws JobFailure {
    SourceConfig source = settings.source();
    long before = Meters.requests(Meters.Request.LIST);
    try {
      return ExecutorContext.source(settings).lister().shards(source.prefixes(), target);
    } catch (IOException e) {
      throw new JobFailure("cannot list " + source.describe() + ": " + Failures.describe(e) + hint("source", source.store()));
    } finally {
      counters.pages.add(Meters.requests(Meters.Request.LIST) - before);
    }
  }

  /** The destination's shards under the same relative prefixes; none when it does not exist yet. */
  public static List<Shard> destinationShards(CopySettings settings, int target, Counters counters) throws JobFailure {
    long before = Meters.requests(Meters.Request.LIST);
    try {
      return ExecutorContext.destination(settings).existing().shards(settings.source().prefixes(), target);
    } catch (NoSuchFileException | NotDirectoryException e) {
      return List.of(); // nothing there yet
    } catch (IOException e) {
      throw new JobFailure("cannot list the destination " + settings.destination().describe() + ": " + Failures.describe(e)
          + hint("destination", settings.destination().store()));
    } finally {
      counters.pages.add(Meters.requests(Meters.Request.LIST) - before);
    }
  }

  /** The source's objects and, from a manifest, those it names that the source no longer holds. */
  public record Sources(JavaRDD<StoreObject> objects, JavaRDD<StoreObject> missing, String description) {}

  /**
   * The source's objects whose keys the globs select (sizes and times are checked later): listed from its shards (in
   * rounds, each persisted into {@code cache}: this lists), or read from its manifest (not yet computed: the first
   * action reads it).
   */
  public static Sources sources(JavaSparkContext jsc, CopySettings settings, Paging paging, Counters counters, Held cache)
      throws JobFailure {
    if (!settings.source().manifest().isEmpty()) {
      List<ManifestPart> parts = manifestParts(settings);
      JavaRDD<ManifestFunction.Checked> checked = cache.persist(manifest(jsc, settings, parts, counters));
      return new Sources(checked.filter(c -> !c.missing()).map(ManifestFunction.Checked::object),
          checked.filter(ManifestFunction.Checked::missing).map(ManifestFunction.Checked::object), parts.size()
              + " pieces of the manifest");
    }
    JavaRDD<StoreObject> objects = list(jsc, settings, sourceShards(settings, paging.target(), counters), true, counters, paging, cache);
    return new Sources(objects, jsc.emptyRDD(), counters.shards.get() + " shards");
  }

  /** The destination's objects, strays (temp files of the job's earlier runs) included; listed in rounds, as the source's. */
  public static JavaRDD<StoreObject> destination(JavaSparkContext jsc, CopySettings settings, Paging paging, Counters counters,
      Held cache) throws JobFailure {
    List<Shard> shards = destinationShards(settings, paging.target(), counters);
    if (shards.isEmpty()) return jsc.emptyRDD();
    return list(jsc, settings, shards, false, counters, paging, cache);
  }

  /**
   * The listing's rounds: each lists its shards on the executors, each shard for {@link KeySpace#pages} pages while
   * there are fewer than the paging's target of them (to its end after that), and the pieces left of those that proved large
   * are the next round's shards. The objects of every round, persisted into {@code cache}.
   */
  private static JavaRDD<StoreObject> list(JavaSparkContext jsc, CopySettings settings, List<Shard> shards, boolean source,
      Counters counters, Paging paging, Held cache) throws JobFailure {
    String what = source ? "cannot list " + settings.source().describe()
        : "cannot list the destination " + settings.destination().describe();
    String hint = source ? hint("source", settings.source().store())
        : hint("destination", settings.destination().store());
    int streams = settings.copy().streamsPerTask();
    JavaRDD<StoreObject> objects = jsc.emptyRDD(); // no shards: nothing under the prefixes
    List<Shard> open = shards;
    for (int round = 0; !open.isEmpty(); round++) {
      int pages = KeySpace.pages(open.size(), round, paging.target());
      int partitions = Math.max(Math.min(open.size(), jsc.defaultParallelism()), (open.size() + streams - 1) / streams);
      JavaRDD<ListFunction.Found> listed = cache.persist(jsc.parallelize(open, Math.max(1, partitions))
          .mapPartitions(new ListFunction(settings, source, counters, pages, paging.pageKeys())));
      counters.shards.addAndGet(open.size());
      open = Actions.run(() -> listed.filter(f -> f.rest() != null).map(ListFunction.Found::rest).collect(), what, hint);
      JavaRDD<StoreObject> found = listed.filter(f -> f.object() != null).map(ListFunction.Found::object);
      objects = round == 0 ? found : objects.union(found);
    }
    return objects;
  }

  /** The manifest's pieces, found on the driver (a key list's size; an inventory's manifest.json). */
  public static List<ManifestPart> manifestParts(CopySettings settings) throws JobFailure {
    return manifestParts(settings, settings.source().manifest(), "ferry.source.manifest");
  }

  private static List<ManifestPart> manifestParts(CopySettings settings, String manifest, String key) throws JobFailure {
    try {
      return Manifests.parts(manifest, ExecutorContext.manifestFiles(settings));
    } catch (IOException e) {
      throw new JobFailure("cannot read the manifest " + manifest + ": " + Failures.describe(e)
          + " (check " + key + ", and that the source's credentials may read it)");
    }
  }

  /**
   * The keys (relative to the source's prefix, selected by its folders and globs) that two S3 Inventory reports of the
   * source differ in ({@link InventoryDiff}), each once: both read by the executors and joined by key.
   */
  public static Inventories inventoryDiff(JavaSparkContext jsc, CopySettings settings, String older, String newer)
      throws JobFailure {
    Counters counters = new Counters(jsc, "inventory");
    List<Manifests.Report> reports = checkReports(settings, older, newer);
    JavaPairRDD<String, StoreObject> before = rows(jsc, settings, manifestParts(settings, older, "ferry.source.inventory-diff.older"),
        counters);
    JavaPairRDD<String, StoreObject> after = rows(jsc, settings, manifestParts(settings, newer, "ferry.source.inventory-diff.newer"),
        counters);
    return new Inventories(before.cogroup(after).filter(t -> differ(t._2()._1(), t._2()._2())).keys(), reports.get(0), reports.get(1));
  }

  /** The keys two inventory reports differ in, and what each report's manifest says of it. */
  public record Inventories(JavaRDD<String> keys, Manifests.Report older, Manifests.Report newer) {}

  /** Two reports of the source's bucket, the older made first, whose rows tell an overwrite of the same size. */
  private static List<Manifests.Report> checkReports(CopySettings settings, String older, String newer) throws JobFailure {
    String bucket = ((BucketConfig) settings.source().store()).bucket();
    Manifests.Report before = report(settings, older, "ferry.source.inventory-diff.older");
    Manifests.Report after = report(settings, newer, "ferry.source.inventory-diff.newer");
    for (var r : List.of(Map.entry(older, before), Map.entry(newer, after))) {
      if (!r.getValue().sourceBucket().isEmpty() && !r.getValue().sourceBucket().equals(bucket)) {
        throw new JobFailure("the inventory " + r.getKey() + " lists the bucket " + r.getValue().sourceBucket() + ", and the source is "
            + bucket + " (check ferry.source.inventory-diff)");
      }
      if (!r.getValue().showsOverwrites()) {
        throw new JobFailure("the inventory " + r.getKey() + " has neither ETag nor LastModifiedDate among its fields, so a diff"
            + " cannot see a key overwritten at the same size: add them to the inventory's optional fields");
      }
    }
    if (before.createdMillis() > 0 && after.createdMillis() > 0 && before.createdMillis() >= after.createdMillis()) {
      throw new JobFailure("the inventory " + older + " was made after " + newer + ": ferry.source.inventory-diff.older names the"
          + " earlier report, newer the later one");
    }
    return List.of(before, after);
  }

  private static Manifests.Report report(CopySettings settings, String manifest, String key) throws JobFailure {
    try {
      return Manifests.report(manifest, ExecutorContext.manifestFiles(settings));
    } catch (IOException e) {
      throw new JobFailure("cannot read the manifest " + manifest + ": " + Failures.describe(e)
          + " (check " + key + ", and that the source's credentials may read it)");
    }
  }

  private static JavaPairRDD<String, StoreObject> rows(JavaSparkContext jsc, CopySettings settings, List<ManifestPart> parts,
      Counters counters) {
    return jsc.parallelize(parts, Math.max(1, parts.size())).mapPartitions(new ManifestFunction(settings, counters))
        .mapToPair(c -> new Tuple2<>(c.object().relativeKey(), c.object()));
  }

  /** A key's rows in two reports differ; a key with several rows in one report is looked up all the same. */
  private static boolean differ(Iterable<StoreObject> older, Iterable<StoreObject> newer) {
    Iterator<StoreObject> a = older.iterator();
    Iterator<StoreObject> b = newer.iterator();
    StoreObject first = a.hasNext() ? a.next() : null;
    StoreObject second = b.hasNext() ? b.next() : null;
    return a.hasNext() || b.hasNext() || InventoryDiff.changed(first, second);
  }

  /**
   * The objects a manifest names, under the source's prefix and selected by its globs; with {@code manifest-check}
   * each is looked up at the source (HEAD), and those it no longer holds are {@link ManifestFunction.Checked#missing}.
   */
  public static JavaRDD<ManifestFunction.Checked> manifest(JavaSparkContext jsc, CopySettings settings, List<ManifestPart> parts,
      Counters counters) {
    JavaRDD<ManifestFunction.Checked> read = jsc.parallelize(parts, Math.max(1, parts.size()))
        .mapPartitions(new ManifestFunction(settings, counters));
    if (!settings.source().checkManifest()) return read;
    // HEADs spread evenly: an inventory's data files differ in size, and a key list may be one piece
    return read.repartition(Math.max(4 * jsc.defaultParallelism(), parts.size())).mapPartitions(new ManifestFunction.Check(settings,
        counters));
  }

  /** What to check when a side cannot be listed: for a bucket, the settings that reach it. */
  public static String hint(String side, StoreConfig store) {
    return store instanceof BucketConfig ? " (check ferry." + side + ".bucket, endpoint and credentials)" : "";
  }
}
