package io.ferry.spark;

import io.ferry.config.MigrationConfig;
import io.ferry.plan.PartSizing;
import io.ferry.report.DatasetFiles;
import io.ferry.report.Datasets;
import io.ferry.report.RunFolder;
import io.ferry.report.Units;
import io.ferry.report.VerifySummary;
import io.ferry.store.ByteRange;
import io.ferry.store.Destination;
import io.ferry.store.Failures;
import io.ferry.store.KeyFilter;
import io.ferry.store.Store;
import io.ferry.store.StoreObject;
import io.ferry.verify.Comparison;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Future;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple2;

/**
 * {@code ferry verify}: compares the destination with the source without copying. The two listings are paired by
 * relative key; a pair whose sizes differ, or whose ETags are both the same MD5, is settled from the listings; every
 * other pair is read on both sides, in ranges of the plan's part size spread over the cluster, and compared by
 * CRC32C. Writes its own report ({@code <report.path>/<job>/verify-<run>/}: the {@code verify} dataset, one row per
 * object, and {@code summary.json}).
 */
final class VerifyJob {
  private VerifyJob() {}

  static VerifySummary run(MigrationConfig config, Future<JavaSparkContext> spark, PrintStream out) throws JobFailure, IOException {
    Instant started = Instant.now();
    String runId = MigrationJob.newRunId(started);
    CopySettings settings = new CopySettings(config.source(), config.destination(), config.jobName(), runId, config.copy());
    Store source = ExecutorContext.source(settings);
    Destination destination = ExecutorContext.destination(settings);
    out.printf("Ferry verify %s run %s: %s against %s%n", config.jobName(), runId, config.source().describe(), config.destination().describe());
    Map<String, StoreObject> there = new HashMap<>();
    List<StoreObject> listed = new ArrayList<>();
    try {
      KeyFilter.of(config.source()).list(source.lister(), listed::add);
    } catch (IOException e) {
      throw new JobFailure("cannot list " + config.source().describe() + ": " + Failures.describe(e) + Planning.hint("source", config.source().store()));
    }
    try {
      destination.existing().list(o -> {
        if (!destination.isStray(o)) there.put(o.relativeKey(), o);
      });
    } catch (java.nio.file.NoSuchFileException | java.nio.file.NotDirectoryException e) {
      // nothing there: every object is missing
    } catch (IOException e) {
      throw new JobFailure("cannot list the destination " + config.destination().describe() + ": " + Failures.describe(e)
          + Planning.hint("destination", config.destination().store()));
    }
    List<Comparison.Result> settled = new ArrayList<>();
    List<Comparison.Check> checks = new ArrayList<>();
    for (StoreObject s : listed) {
      StoreObject d = there.remove(s.relativeKey());
      Comparison.Result r = Comparison.withoutReading(s, d);
      if (r != null) {
        settled.add(r);
        continue;
      }
      long partSize = PartSizing.partSize(s.size(), config.plan().partSize(), PartSizing.MAX_PARTS);
      int parts = PartSizing.partCount(s.size(), partSize);
      for (int part = 1; part <= parts; part++) {
        ByteRange range = PartSizing.part(s.size(), partSize, part);
        checks.add(new Comparison.Check(s, d, part, parts, range));
      }
    }
    there.values().forEach(d -> settled.add(Comparison.withoutReading(null, d)));
    out.printf("LIST  %d objects at the source, %d settled by their listings, %d ranges to read on both sides%n", listed.size(),
        settled.size() - (long) there.size(), checks.size());

    JavaSparkContext jsc = MigrationJob.started(spark);
    jsc.setJobGroup("VERIFY", "VERIFY: " + checks.size() + " ranges read on both sides", true);
    int slices = MigrationJob.slices(checks.size(), config.copy().streamsPerTask(), jsc.defaultParallelism());
    JavaRDD<Comparison.Result> compared = jsc.parallelize(checks, slices).mapPartitions(new VerifyFunction(settings))
        .mapToPair(r -> new Tuple2<>(r.key(), r)).reduceByKey(Comparison.Result::merge).values();
    JavaRDD<Comparison.Result> results = compared.union(jsc.parallelize(settled, 1)).persist(StorageLevel.MEMORY_AND_DISK_SER());

    RunFolder folder = new RunFolder(jsc.hadoopConfiguration(), config.reportPath(), config.jobName(), "verify-" + runId);
    String directory = folder.qualified();
    Broadcast<SerializableConfiguration> hadoop = SerializableConfiguration.broadcast(jsc.sc());
    String job = config.jobName();
    try {
      results.coalesce(Math.max(1, Math.min(results.getNumPartitions(), 16))).foreachPartition(rows -> {
        org.apache.spark.TaskContext task = org.apache.spark.TaskContext.get();
        DatasetFiles.writePart(Datasets.verify(job, runId), rows, directory, task.partitionId(), String.valueOf(task.taskAttemptId()),
            hadoop.value().value(), r -> { });
      });
    } finally {
      hadoop.destroy();
    }
    DatasetFiles.markDone(Datasets.verify(job, runId), directory, folder.hadoop());
    Map<String, Long> byStatus = new TreeMap<>(results.map(r -> r.status().name()).countByValue());
    long bytesRead = results.map(Comparison.Result::bytesRead).fold(0L, Long::sum);
    List<VerifySummary.Difference> differences = results.filter(r -> r.status() != Comparison.Status.MATCH)
        .map(r -> new VerifySummary.Difference(r.key(), r.status().name(), r.detail()))
        .takeOrdered(VerifySummary.DIFFERENCES, new ByKey());
    results.unpersist();
    VerifySummary summary = new VerifySummary(VerifySummary.NAME, VerifySummary.VERSION, job, runId, config.source().describe(),
        config.destination().describe(), started.toString(), (System.currentTimeMillis() - started.toEpochMilli()) / 1000.0, byStatus,
        bytesRead, differences, folder.directory());
    folder.writeJson("summary.json", summary);
    StringBuilder text = new StringBuilder();
    text.append(String.format(Locale.ROOT, "%nFerry verify %s (job %s): %s in %.1f s%n", runId, job,
        summary.matches() ? "the destination matches the source" : "DIFFERENCES FOUND", summary.wallSeconds()));
    byStatus.forEach((status, count) -> text.append(String.format(Locale.ROOT, "  %-16s %d%n", status.toLowerCase(Locale.ROOT), count)));
    text.append(String.format(Locale.ROOT, "  read             %s on both sides%n", Units.bytes(bytesRead)));
    for (VerifySummary.Difference d : differences) text.append(String.format("  %s %s %s%n", d.status(), d.key(), d.detail()));
    text.append(String.format("  report           %s (datasets: verify.parquet, verify.csv, summary.json)%n", folder.directory()));
    out.print(text);
    out.flush();
    return summary;
  }

  /** Differences in key order (serializable, for takeOrdered). */
  static final class ByKey implements java.util.Comparator<VerifySummary.Difference>, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(VerifySummary.Difference a, VerifySummary.Difference b) {
      return a.key().compareTo(b.key());
    }
  }
}
