package io.ferry.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.ferry.copy.ObjectResult;
import io.ferry.copy.RangeResult;
import io.ferry.spark.WriteDatasetFunction;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * REPORT: writes the ranges and objects datasets (Parquet + CSV, {@link DatasetFiles}) on the executors and gathers
 * the run's statistics from the same pass ({@link RunStats}; no per-range rows are collected): one Spark job per
 * dataset. Then {@code summary.json} and {@code report.html} beside them.
 */
public final class ReportWriter {
  /** What the run knows beyond its results. */
  public record RunInfo(String job, String run, String source, String destination, Instant startedAt, long listed,
      long skippedUnchanged, long splitObjects, long listPages, long copyStartMillis, long copyEndMillis,
      io.ferry.MigrationJob.Stopwatch stages) {}

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final int TIMELINE_BUCKETS = 120;

  private final SparkContext spark;
  private final String runDirectory;

  public ReportWriter(SparkContext spark, String reportPath, String job, String run) {
    this.spark = spark;
    this.runDirectory = stripSlash(reportPath) + "/" + job + "/" + run;
  }

  public String runDirectory() {
    return runDirectory;
  }

  public RunSummary write(RunInfo info, JavaRDD<RangeResult> ranges, JavaRDD<ObjectResult> objects) throws IOException {
    String job = info.job();
    String run = info.run();
    spark.setJobGroup("REPORT", "REPORT: statistics and the ranges and objects datasets", false);
    Configuration hadoop = spark.hadoopConfiguration();
    String directory = LocalFiles.of(URI.create(runDirectory), hadoop).makeQualified(new Path(runDirectory)).toString();
    Broadcast<SerializableConfiguration> conf = SerializableConfiguration.broadcast(spark);
    RunStats stats;
    try {
      stats = ranges.coalesce(slices(ranges))
          .mapPartitionsWithIndex(WriteDatasetFunction.ranges(job, run, directory, conf, info.copyStartMillis(), info.copyEndMillis(),
              TIMELINE_BUCKETS), false)
          .reduce(RunStats::merge);
      stats.merge(objects.coalesce(slices(objects))
          .mapPartitionsWithIndex(WriteDatasetFunction.objects(job, run, directory, conf), false)
          .reduce(RunStats::merge));
    } finally {
      conf.destroy();
    }
    DatasetFiles.markDone(Datasets.ranges(job, run), directory, hadoop);
    DatasetFiles.markDone(Datasets.objects(job, run), directory, hadoop);
    info.stages().lap("report");
    RunSummary summary = summarize(info, stats);
    writeText("summary.json", JSON.writeValueAsString(summary));
    writeText("report.html", HtmlReport.render(summary, stats));
    return summary;
  }

  /** A part file per partition, at most 16 per dataset: one for a small run, a few writers in parallel for a big one. */
  private static int slices(JavaRDD<?> rdd) {
    return Math.max(1, Math.min(rdd.getNumPartitions(), 16));
  }

  private RunSummary summarize(RunInfo info, RunStats s) {
    List<RunSummary.Straggler> stragglers = new ArrayList<>();
    for (RangeResult r : s.slowest()) {
      stragglers.add(new RunSummary.Straggler(r.object().key(), r.partNumber(), r.bytes(), r.durationNanos() / 1e9,
          r.megabytesPerSecond(), r.executorId(), r.attempts()));
    }
    List<RunSummary.Failure> failures = new ArrayList<>();
    for (ObjectResult o : s.failures()) failures.add(new RunSummary.Failure(o.object().key(), o.error()));
    Instant finished = Instant.now();
    double wall = (finished.toEpochMilli() - info.startedAt().toEpochMilli()) / 1000.0;
    double copySeconds = (info.copyEndMillis() - info.copyStartMillis()) / 1000.0;
    Map<String, Long> requests = new LinkedHashMap<>();
    requests.put("list", info.listPages());
    requests.putAll(s.requestsByMethod);
    return new RunSummary(RunSummary.NAME, RunSummary.VERSION, info.job(), info.run(), info.source(), info.destination(),
        info.startedAt().toString(), finished.toString(), wall,
        new RunSummary.Objects(info.listed(), s.objects, s.objectsCopied, info.skippedUnchanged(), s.objectsFailed),
        new RunSummary.Bytes(s.objectBytes, s.objectBytesCopied, s.payloadBytes),
        new RunSummary.Ranges(s.ranges, s.rangesOk, s.ranges - s.rangesOk, s.retries, info.splitObjects()),
        new RunSummary.Throughput(copySeconds > 0 ? s.objectBytesCopied / 1e6 / copySeconds : 0, copySeconds,
            s.rateQuantile(0.5), s.rateQuantile(0.9), s.rateQuantile(0.99), s.maxMbps, s.firstByteQuantile(0.5)),
        requests, info.stages().laps(), stragglers, failures, runDirectory);
  }

  private void writeText(String name, String text) throws IOException {
    Path path = new Path(runDirectory + "/" + name);
    FileSystem fs = LocalFiles.of(URI.create(runDirectory), spark.hadoopConfiguration());
    try (OutputStream out = fs.create(path, false)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String stripSlash(String path) {
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
