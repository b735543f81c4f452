package io.ferry.spark.run;

import io.ferry.config.BucketConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.plan.Keyed;
import io.ferry.plan.Lanes;
import io.ferry.plan.PartSizing;
import io.ferry.report.DatasetFiles;
import io.ferry.report.Datasets;
import io.ferry.report.RunFolder;
import io.ferry.report.VerifySummary;
import io.ferry.spark.Actions;
import io.ferry.spark.CopySettings;
import io.ferry.spark.Held;
import io.ferry.spark.JobFailure;
import io.ferry.spark.ListedEntries;
import io.ferry.spark.Listing;
import io.ferry.spark.StoredChecksumFunction;
import io.ferry.spark.VerifyFunction;
import io.ferry.store.StoreObject;
import io.ferry.verify.Comparison;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.StreamSupport;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple2;

/**
 * {@code ferry verify}: compares the destination with the source without copying. The two listings (on the
 * executors, as a run lists) are paired by relative key; a pair whose sizes differ, or whose ETags are both the same
 * MD5, is settled from the listings; between two buckets, one of {@link #HEAD_FIRST_BYTES} or more by the checksums both
 * stores keep, where they do; every other pair is read on both sides, in ranges of the plan's part size spread over the
 * cluster, and compared by CRC32C. Writes its own report ({@code <report.path>/<job>/verify-<run>/}: the {@code verify}
 * dataset, or with {@code --manifest} the {@code manifest} in key order and its SHA-256, one row per key, and {@code
 * summary.json}).
 */
final class VerifyJob {
  private VerifyJob() {}

  static VerifySummary run(MigrationConfig config, Future<JavaSparkContext> spark, Commands.Verify asked, PrintStream out)
      throws JobFailure, IOException {
    if (config.source().store() instanceof BucketConfig b && b.versions()) {
      throw new JobFailure("verify compares each key's current version, and this job copies every version (source.versions = all):"
          + " run verify with -Dferry.source.versions=current; a rerun of the job writes any version the destination lacks");
    }
    Instant started = Instant.now();
    String runId = MigrationJob.newRunId(started);
    CopySettings settings = new CopySettings(config.source(), config.destination(), config.jobName(), runId, config.copy());
    out.printf("Ferry verify %s run %s: %s against %s%s%n", config.jobName(), runId, config.source().describe(),
        config.destination().describe(), asked == Commands.Verify.MANIFEST ? ", writing a completion manifest" : "");
    JavaSparkContext jsc = MigrationJob.started(spark);
    Paired paired = pair(config, settings, jsc, out);
    JavaPairRDD<String, Comparison.Range> ranges = paired.checks().repartition(paired.slices(config, jsc))
        .mapPartitions(new VerifyFunction(settings)).mapToPair(r -> new Tuple2<>(r.check().key(), r));
    JavaRDD<Comparison.Result> compared = ranges.groupByKey()
        .map(e -> Comparison.whole(StreamSupport.stream(e._2().spliterator(), false).toList()));
    JavaRDD<Comparison.Result> results = compared.union(paired.settled()).persist(StorageLevel.MEMORY_AND_DISK_SER());

    RunFolder folder = new RunFolder(jsc.hadoopConfiguration(), config.reportPath(), config.jobName(), "verify-" + runId);
    String job = config.jobName();
    // the summary and the exit code count the rows as they were written: a row recomputed later could say otherwise
    VerifySummary.Tally tally;
    VerifySummary.Manifest manifest = null;
    if (asked == Commands.Verify.MANIFEST) {
      JavaRDD<Comparison.Result> sorted = results.sortBy(Comparison.Result::key, true, Math.max(1, Math.min(results.getNumPartitions(),
          16)));
      tally = write(jsc, sorted, asked, job, runId, folder);
      manifest = new VerifySummary.Manifest(folder.directory() + "/manifest.parquet", tally.objects().values().stream()
          .mapToLong(Long::longValue).sum(), tally.proven(), tally.duplicateKeys(),
          DatasetFiles.sha256(table(asked, job, runId), folder.qualified(), folder.hadoop()));
    } else {
      tally = write(jsc, results, asked, job, runId, folder);
    }
    List<VerifySummary.Difference> differences = results.filter(r -> r.status() != Comparison.Status.MATCH)
        .map(r -> new VerifySummary.Difference(r.key(), r.status().name(), r.detail()))
        .takeOrdered(VerifySummary.DIFFERENCES, new ByKey());
    results.unpersist();
    paired.release();
    VerifySummary summary = new VerifySummary(VerifySummary.NAME, VerifySummary.VERSION, job, runId, config.source().describe(),
        config.destination().describe(), started.toString(), (System.currentTimeMillis() - started.toEpochMilli()) / 1000.0,
        tally.objects(), tally.bytesRead(), differences, folder.directory(), paired.listed(), tally.rows(), manifest);
    folder.writeJson("summary.json", summary);
    Console.printVerified(summary, out);
    out.flush();
    return summary;
  }

  /**
   * Both sides listed and paired by relative key: the pairs the listings settle, the ranges of the others to read, and
   * what each listing found.
   */
  private record Paired(JavaRDD<Comparison.Result> settled, JavaRDD<Comparison.Check> checks, long checkCount,
      VerifySummary.Sides listed, JavaRDD<?> headed) {
    int slices(MigrationConfig config, JavaSparkContext jsc) {
      jsc.setJobGroup("VERIFY", "VERIFY: " + checkCount + " ranges read on both sides", true);
      return Lanes.count(checkCount, config.copy().streamsPerTask(), jsc.defaultParallelism());
    }

    void release() {
      checks.unpersist();
      headed.unpersist(); // the pairs' blocks, locally checkpointed, go once they are collected (Spark's ContextCleaner)
    }
  }

  private static Paired pair(MigrationConfig config, CopySettings settings, JavaSparkContext jsc, PrintStream out) throws JobFailure {
    Listing.Paging paging = Listing.Paging.of(config, jsc);
    Listing.Counters sourceCounts = new Listing.Counters(jsc, "source");
    Held listings = new Held();
    jsc.setJobGroup("LIST", "LIST: both sides, paired by key", true);
    Listing.Sources sources = Listing.sources(jsc, settings, paging, sourceCounts, listings);
    JavaRDD<StoreObject> source = sources.objects().mapPartitions(new ListedEntries(settings, ListedEntries.Which.SOURCE_SELECTED));
    Listing.Counters existingCounts = new Listing.Counters(jsc, "destination");
    JavaRDD<StoreObject> existing = Listing.destination(jsc, settings, paging, existingCounts, listings)
        .mapPartitions(new ListedEntries(settings, ListedEntries.Which.DESTINATION_SELECTED));
    JavaPairRDD<String, Keyed> sides = source.mapToPair(o -> new Tuple2<>(o.relativeKey(), Keyed.source(o)))
        .union(existing.mapToPair(o -> new Tuple2<>(o.relativeKey(), Keyed.existing(o)))).persist(StorageLevel.MEMORY_AND_DISK_SER());
    String cannot = "cannot list " + config.source().describe() + " or " + config.destination().describe();
    VerifySummary.Sides listed = Actions.run(() -> sides.values().map(k -> sides(k.source(), k.existing()))
        .fold(VerifySummary.Sides.NONE, VerifySummary.Sides::plus), cannot, "");
    listings.close(); // what was listed is held by the sides
    JavaRDD<Keyed> pairs = sides.reduceByKey(Keyed::merge, jsc.defaultParallelism()).values().persist(StorageLevel.MEMORY_AND_DISK_SER());
    // never listed again: a pair lost with an executor fails the job rather than pair a second listing with the first
    pairs.rdd().localCheckpoint();
    long keys = pairs.count();
    sides.unpersist();
    long partSize = config.plan().partSize();
    Unread unread = unread(config, settings, jsc, pairs);
    JavaRDD<Comparison.Check> checks = unread.pairs().flatMap(k -> checks(k, partSize).iterator())
        .persist(StorageLevel.MEMORY_AND_DISK_SER());
    long checkCount = checks.count();
    long stored = unread.settled().count();
    out.printf("LIST  %d objects at the source, %d keys in all, %s%d ranges to read on both sides%n", sourceCounts.selected.value(),
        keys, stored == 0 ? "" : stored + " settled by the checksums both stores keep, ", checkCount);
    JavaRDD<Comparison.Result> settled = pairs.map(k -> Comparison.withoutReading(k.source(), k.existing())).filter(r -> r != null)
        .union(unread.settled());
    return new Paired(settled, checks, checkCount, listed, unread.cached());
  }

  /** Objects this large are asked for the checksums their stores keep before they are read: reading costs more than a HEAD. */
  static final long HEAD_FIRST_BYTES = 1 << 20;

  /**
   * The pairs to read, and the verdicts of those the checksums both stores keep settle: asked with a HEAD each side
   * where both are buckets and the object holds {@link #HEAD_FIRST_BYTES} or more (a smaller one costs a GET a side).
   */
  private record Unread(JavaRDD<Keyed> pairs, JavaRDD<Comparison.Result> settled, JavaRDD<?> cached) {}

  private static Unread unread(MigrationConfig config, CopySettings settings, JavaSparkContext jsc, JavaRDD<Keyed> pairs) {
    JavaRDD<Keyed> toRead = pairs.filter(k -> Comparison.withoutReading(k.source(), k.existing()) == null);
    if (!(config.source().store() instanceof BucketConfig) || !(config.destination().store() instanceof BucketConfig)) {
      return new Unread(toRead, jsc.emptyRDD(), toRead);
    }
    JavaRDD<StoredChecksumFunction.Headed> headed = toRead.filter(k -> k.source().size() >= HEAD_FIRST_BYTES)
        .mapPartitions(new StoredChecksumFunction(settings)).persist(StorageLevel.MEMORY_AND_DISK_SER());
    return new Unread(toRead.filter(k -> k.source().size() < HEAD_FIRST_BYTES).union(headed.filter(h -> h.settled() == null)
        .map(StoredChecksumFunction.Headed::pair)), headed.filter(h -> h.settled() != null).map(StoredChecksumFunction.Headed::settled),
        headed);
  }

  private static VerifySummary.Sides sides(StoreObject source, StoreObject destination) {
    return new VerifySummary.Sides(source == null ? 0 : 1, source == null ? 0 : source.size(), destination == null ? 0 : 1,
        destination == null ? 0 : destination.size());
  }

  /**
   * A dataset of the rows, a part per partition (at most 16), written on the executors into the verify run's folder:
   * what they hold, counted as each part was written.
   */
  private static VerifySummary.Tally write(JavaSparkContext jsc, JavaRDD<Comparison.Result> rows, Commands.Verify asked, String job,
      String runId, RunFolder folder) throws IOException {
    String directory = folder.qualified();
    Broadcast<SerializableConfiguration> hadoop = SerializableConfiguration.broadcast(jsc.sc());
    JavaRDD<Comparison.Result> parts = rows.getNumPartitions() <= 16 ? rows : rows.coalesce(16);
    List<VerifySummary.Tally> tallies;
    try {
      tallies = parts.mapPartitions(each -> {
        TaskContext task = TaskContext.get();
        Tallying tally = new Tallying();
        DatasetFiles.writePart(table(asked, job, runId), each, directory, task.partitionId(), String.valueOf(task.taskAttemptId()),
            hadoop.value().value(), tally);
        return List.of(tally.tally()).iterator();
      }).collect();
    } finally {
      hadoop.destroy();
    }
    DatasetFiles.markDone(table(asked, job, runId), directory, folder.hadoop());
    return tallies.stream().reduce(new VerifySummary.Tally(Map.of(), 0, 0, VerifySummary.Sides.NONE, 0), VerifySummary.Tally::plus);
  }

  /** Counts a part's rows as they are written; a key met twice in a row of keys in order is a duplicate. */
  private static final class Tallying implements Consumer<Comparison.Result> {
    private final long[] statuses = new long[Comparison.Status.values().length];
    private long proven;
    private long bytesRead;
    private VerifySummary.Sides sides = VerifySummary.Sides.NONE;
    private long duplicates;
    private String last;

    @Override
    public void accept(Comparison.Result r) {
      statuses[r.status().ordinal()]++;
      if (r.proven()) proven++;
      bytesRead += r.bytesRead();
      sides = sides.plus(sides(r.source(), r.destination()));
      if (r.key().equals(last)) duplicates++;
      last = r.key();
    }

    VerifySummary.Tally tally() {
      Map<String, Long> objects = new TreeMap<>();
      for (Comparison.Status s : Comparison.Status.values()) if (statuses[s.ordinal()] > 0) objects.put(s.name(), statuses[s.ordinal()]);
      return new VerifySummary.Tally(objects, proven, bytesRead, sides, duplicates);
    }
  }

  /** The dataset's table, made where it is written (its columns' functions are not serializable). */
  private static Datasets.Table<Comparison.Result> table(Commands.Verify asked, String job, String runId) {
    return asked == Commands.Verify.MANIFEST ? Datasets.manifest(job, runId) : Datasets.verify(job, runId);
  }

  /** A pair the listings cannot settle, read in ranges of the part size on both sides. */
  private static List<Comparison.Check> checks(Keyed k, long partSize) {
    StoreObject s = k.source();
    long size = PartSizing.partSize(s.size(), partSize, PartSizing.MAX_PARTS);
    int parts = PartSizing.partCount(s.size(), size);
    List<Comparison.Check> ranges = new ArrayList<>(parts);
    for (int part = 1; part <= parts; part++) ranges.add(new Comparison.Check(s, k.existing(), part, parts, PartSizing.part(s.size(), size,
        part)));
    return ranges;
  }

  /** Differences in key order (serializable, for takeOrdered). */
  static final class ByKey implements Comparator<VerifySummary.Difference>, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(VerifySummary.Difference a, VerifySummary.Difference b) {
      return a.key().compareTo(b.key());
    }
  }
}
