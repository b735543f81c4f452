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
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple2;

/**
 * {@code ferry verify}: compares the destination with the source without copying. The two listings (on the
 * executors, as a run lists) are paired by relative key; a pair whose sizes differ, or whose ETags are both the same MD5, is settled from
 * the listings; every
 * other pair is read on both sides, in ranges of the plan's part size spread over the cluster, and compared by
 * CRC32C. Writes its own report ({@code <report.path>/<job>/verify-<run>/}: the {@code verify} dataset, one row per
 * object, and {@code summary.json}).
 */
final class VerifyJob {
  private VerifyJob() {}

  static VerifySummary run(MigrationConfig config, Future<JavaSparkContext> spark, PrintStream out) throws JobFailure, IOException {
    if (config.source().store() instanceof BucketConfig b && b.versions()) {
      throw new JobFailure("verify compares each key's current version, and this job copies every version (source.versions = all):"
          + " run verify with -Dferry.source.versions=current; a rerun of the job writes any version the destination lacks");
    }
    Instant started = Instant.now();
    String runId = MigrationJob.newRunId(started);
    CopySettings settings = new CopySettings(config.source(), config.destination(), config.jobName(), runId, config.copy());
    out.printf("Ferry verify %s run %s: %s against %s%n", config.jobName(), runId, config.source().describe(),
        config.destination().describe());
    JavaSparkContext jsc = MigrationJob.started(spark);
    Listing.Paging paging = Listing.Paging.of(config, jsc);
    Listing.Counters sourceCounts = new Listing.Counters(jsc, "source");
    Held listings = new Held();
    jsc.setJobGroup("LIST", "LIST: both sides, paired by key", true);
    Listing.Sources sources = Listing.sources(jsc, settings, paging, sourceCounts, listings);
    JavaRDD<StoreObject> source = sources.objects().mapPartitions(new ListedEntries(settings, ListedEntries.Which.SOURCE_SELECTED));
    Listing.Counters existingCounts = new Listing.Counters(jsc, "destination");
    JavaRDD<StoreObject> existing = Listing.destination(jsc, settings, paging, existingCounts, listings)
        .mapPartitions(new ListedEntries(settings, ListedEntries.Which.DESTINATION_SELECTED));
    long partitions = jsc.defaultParallelism();
    JavaRDD<Keyed> pairs = source.mapToPair(o -> new Tuple2<>(o.relativeKey(), Keyed.source(o)))
        .union(existing.mapToPair(o -> new Tuple2<>(o.relativeKey(), Keyed.existing(o))))
        .reduceByKey(Keyed::merge, (int) partitions).values().persist(StorageLevel.MEMORY_AND_DISK_SER());
    long listed = Actions.run(pairs::count, "cannot list " + config.source().describe() + " or " + config.destination().describe(), "");
    listings.close(); // the pairs hold what was listed
    JavaRDD<Comparison.Result> settled = pairs.map(k -> Comparison.withoutReading(k.source(), k.existing())).filter(r -> r != null);
    long partSize = config.plan().partSize();
    JavaRDD<Comparison.Check> checks = pairs.filter(k -> Comparison.withoutReading(k.source(), k.existing()) == null)
        .flatMap(k -> checks(k, partSize).iterator()).persist(StorageLevel.MEMORY_AND_DISK_SER());
    long checkCount = checks.count();
    out.printf("LIST  %d objects at the source, %d keys in all, %d ranges to read on both sides%n", sourceCounts.selected.value(),
        listed, checkCount);

    jsc.setJobGroup("VERIFY", "VERIFY: " + checkCount + " ranges read on both sides", true);
    int slices = Lanes.count(checkCount, config.copy().streamsPerTask(), jsc.defaultParallelism());
    JavaRDD<Comparison.Result> compared = checks.repartition(slices).mapPartitions(new VerifyFunction(settings))
        .mapToPair(r -> new Tuple2<>(r.key(), r)).reduceByKey(Comparison.Result::merge).values();
    JavaRDD<Comparison.Result> results = compared.union(settled).persist(StorageLevel.MEMORY_AND_DISK_SER());

    RunFolder folder = new RunFolder(jsc.hadoopConfiguration(), config.reportPath(), config.jobName(), "verify-" + runId);
    String job = config.jobName();
    write(jsc, results, folder, job, runId);
    Map<String, Long> byStatus = new TreeMap<>(results.map(r -> r.status().name()).countByValue());
    long bytesRead = results.map(Comparison.Result::bytesRead).fold(0L, Long::sum);
    List<VerifySummary.Difference> differences = results.filter(r -> r.status() != Comparison.Status.MATCH)
        .map(r -> new VerifySummary.Difference(r.key(), r.status().name(), r.detail()))
        .takeOrdered(VerifySummary.DIFFERENCES, new ByKey());
    results.unpersist();
    checks.unpersist();
    pairs.unpersist();
    VerifySummary summary = new VerifySummary(VerifySummary.NAME, VerifySummary.VERSION, job, runId, config.source().describe(),
        config.destination().describe(), started.toString(), (System.currentTimeMillis() - started.toEpochMilli()) / 1000.0, byStatus,
        bytesRead, differences, folder.directory());
    folder.writeJson("summary.json", summary);
    Console.printVerified(summary, out);
    out.flush();
    return summary;
  }

  /** The verify dataset: a row per object, written on the executors into the verify run's folder. */
  private static void write(JavaSparkContext jsc, JavaRDD<Comparison.Result> results, RunFolder folder, String job, String runId)
      throws IOException {
    String directory = folder.qualified();
    Broadcast<SerializableConfiguration> hadoop = SerializableConfiguration.broadcast(jsc.sc());
    try {
      results.coalesce(Math.max(1, Math.min(results.getNumPartitions(), 16))).foreachPartition(rows -> {
        TaskContext task = TaskContext.get();
        DatasetFiles.writePart(Datasets.verify(job, runId), rows, directory, task.partitionId(), String.valueOf(task.taskAttemptId()),
            hadoop.value().value(), r -> { });
      });
    } finally {
      hadoop.destroy();
    }
    DatasetFiles.markDone(Datasets.verify(job, runId), directory, folder.hadoop());
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
