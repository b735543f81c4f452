package io.ferry.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.ferry.copy.ObjectResult;
import io.ferry.copy.RangeResult;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaDoubleRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import scala.Tuple2;

/**
 * REPORT: writes the ranges and objects datasets (Parquet + CSV), computes the run summary on the cluster (no
 * per-range rows are collected), and writes {@code summary.json} and {@code report.html} beside them.
 */
public final class ReportWriter {
  /** What the run knows beyond its results. */
  public record RunInfo(String job, String run, String source, String destination, Instant startedAt, long listed,
      long skippedUnchanged, long splitObjects, long listPages, double copyStageSeconds) {}

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final SparkSession spark;
  private final String runDirectory;

  public ReportWriter(SparkSession spark, String reportPath, String job, String run) {
    this.spark = spark;
    this.runDirectory = stripSlash(reportPath) + "/" + job + "/" + run;
  }

  public String runDirectory() {
    return runDirectory;
  }

  public RunSummary write(RunInfo info, JavaRDD<RangeResult> ranges, JavaRDD<ObjectResult> objects) throws IOException {
    String job = info.job();
    String run = info.run();
    Dataset<Row> rangeRows = spark.createDataFrame(ranges.map(r -> Datasets.rangeRow(job, run, r)), Datasets.RANGES).cache();
    Dataset<Row> objectRows = spark.createDataFrame(objects.map(o -> Datasets.objectRow(job, run, o)), Datasets.OBJECTS).cache();
    spark.sparkContext().setJobGroup("REPORT", "REPORT: write the ranges and objects datasets", false);
    for (var entry : Map.of("ranges", rangeRows, "objects", objectRows).entrySet()) {
      Dataset<Row> rows = entry.getValue().coalesce(Math.max(1, Math.min(entry.getValue().rdd().getNumPartitions(), 16)));
      rows.write().mode(SaveMode.ErrorIfExists).parquet(runDirectory + "/" + entry.getKey() + ".parquet");
      rows.write().mode(SaveMode.ErrorIfExists).option("header", "true").csv(runDirectory + "/" + entry.getKey() + ".csv");
    }
    RunSummary summary = summarize(info, rangeRows, objectRows);
    writeText("summary.json", JSON.writeValueAsString(summary));
    writeText("report.html", HtmlReport.render(summary, timeline(ranges), executors(rangeRows), histogram(ranges)));
    rangeRows.unpersist();
    objectRows.unpersist();
    return summary;
  }

  private RunSummary summarize(RunInfo info, Dataset<Row> ranges, Dataset<Row> objects) {
    Row totals = ranges.agg(
        functions.count(functions.lit(1)),
        functions.sum(functions.when(functions.col("status").equalTo("OK"), 1).otherwise(0)),
        functions.coalesce(functions.sum("bytes"), functions.lit(0L)),
        functions.coalesce(functions.sum(functions.greatest(functions.col("attempts").minus(1), functions.lit(0))), functions.lit(0L)),
        functions.coalesce(functions.max("mb_per_s"), functions.lit(0.0)),
        functions.coalesce(functions.sum("payload_bytes"), functions.lit(0L))).first();
    Row counts = objects.agg(
        functions.count(functions.lit(1)),
        functions.sum(functions.when(functions.col("status").equalTo("COPIED"), 1).otherwise(0)),
        functions.sum(functions.when(functions.col("status").equalTo("FAILED"), 1).otherwise(0)),
        functions.coalesce(functions.sum("size"), functions.lit(0L)),
        functions.coalesce(functions.sum(functions.when(functions.col("status").equalTo("COPIED"), functions.col("size")).otherwise(0L)), functions.lit(0L))).first();
    long rangeCount = totals.getLong(0);
    long rangesOk = rangeCount == 0 ? 0 : totals.getLong(1);
    long bytesCopied = counts.getLong(4); // bytes of objects now complete at the destination
    Dataset<Row> measured = ranges.filter(functions.col("bytes").gt(0));
    double[] q = measured.isEmpty() ? new double[] {0, 0, 0}
        : measured.stat().approxQuantile("mb_per_s", new double[] {0.5, 0.9, 0.99}, 0.001);
    Dataset<Row> timed = measured.filter(functions.col("first_byte_ms").isNotNull()); // server-side copies have no first byte
    double[] ttfb = timed.isEmpty() ? new double[] {0} : timed.stat().approxQuantile("first_byte_ms", new double[] {0.5}, 0.001);
    List<RunSummary.Straggler> stragglers = new ArrayList<>();
    for (Row r : ranges.orderBy(functions.col("duration_ms").desc()).limit(5).collectAsList()) {
      stragglers.add(new RunSummary.Straggler(r.getAs("key"), r.<Integer>getAs("part"), r.<Long>getAs("bytes"),
          r.<Double>getAs("duration_ms") / 1000, r.<Double>getAs("mb_per_s"), r.getAs("executor"), r.<Integer>getAs("attempts")));
    }
    List<RunSummary.Failure> failures = new ArrayList<>();
    for (Row r : objects.filter(functions.col("status").equalTo("FAILED")).orderBy("key").limit(20).collectAsList()) {
      failures.add(new RunSummary.Failure(r.getAs("key"), r.getAs("error")));
    }
    Instant finished = Instant.now();
    double wall = (finished.toEpochMilli() - info.startedAt().toEpochMilli()) / 1000.0;
    double copySeconds = info.copyStageSeconds();
    Map<String, Long> requests = new LinkedHashMap<>();
    requests.put("list", info.listPages());
    for (Row r : ranges.groupBy("method").agg(functions.sum("attempts")).orderBy("method").collectAsList()) {
      requests.put(r.getString(0), r.getLong(1));
    }
    long planned = counts.getLong(0);
    long copied = planned == 0 ? 0 : counts.getLong(1);
    long failed = planned == 0 ? 0 : counts.getLong(2);
    return new RunSummary(RunSummary.NAME, RunSummary.VERSION, info.job(), info.run(), info.source(), info.destination(),
        info.startedAt().toString(), finished.toString(), wall,
        new RunSummary.Objects(info.listed(), planned, copied, info.skippedUnchanged(), failed),
        new RunSummary.Bytes(counts.getLong(3), bytesCopied, totals.getLong(5)),
        new RunSummary.Ranges(rangeCount, rangesOk, rangeCount - rangesOk, totals.getLong(3), info.splitObjects()),
        new RunSummary.Throughput(copySeconds > 0 ? bytesCopied / 1e6 / copySeconds : 0, copySeconds, q[0], q[1], q[2],
            totals.getDouble(4), ttfb[0]),
        requests, stragglers, failures, runDirectory);
  }

  /** Bytes per time bucket, each range's bytes spread evenly over its duration; about 120 buckets. */
  static List<double[]> timeline(JavaRDD<RangeResult> ranges) {
    JavaRDD<RangeResult> moved = ranges.filter(r -> r.bytes() > 0);
    if (moved.isEmpty()) return List.of();
    long start = moved.map(RangeResult::startedAtMillis).reduce(Math::min);
    long end = moved.map(RangeResult::finishedAtMillis).reduce(Math::max);
    long bucket = Math.max(100, (end - start) / 120 + 1);
    Map<Long, Double> sums = moved.flatMapToPair(r -> {
      List<Tuple2<Long, Double>> out = new ArrayList<>();
      long from = r.startedAtMillis() - start;
      long to = Math.max(from + 1, r.finishedAtMillis() - start);
      double perMilli = r.bytes() / (double) (to - from);
      for (long b = from / bucket; b * bucket < to; b++) {
        long overlap = Math.min(to, (b + 1) * bucket) - Math.max(from, b * bucket);
        if (overlap > 0) out.add(new Tuple2<>(b, overlap * perMilli));
      }
      return out.iterator();
    }).reduceByKey(Double::sum).collectAsMap();
    List<double[]> points = new ArrayList<>();
    for (long b = 0; b * bucket <= end - start; b++) {
      points.add(new double[] {b * bucket / 1000.0, sums.getOrDefault(b, 0.0) / 1e6 / (bucket / 1000.0)});
    }
    return points;
  }

  static List<Row> executors(Dataset<Row> ranges) {
    return ranges.groupBy("executor", "host")
        .agg(functions.count(functions.lit(1)).as("ranges"), functions.sum("bytes").as("bytes"),
            functions.sum("duration_ms").as("busy_ms"), functions.expr("percentile_approx(mb_per_s, 0.5)").as("p50"))
        .orderBy("executor").collectAsList();
  }

  static Tuple2<double[], long[]> histogram(JavaRDD<RangeResult> ranges) {
    JavaDoubleRDD rates = ranges.filter(r -> r.bytes() > 0).mapToDouble(RangeResult::megabytesPerSecond);
    if (rates.isEmpty()) return new Tuple2<>(new double[] {0, 1}, new long[] {0});
    return rates.histogram(20);
  }

  private void writeText(String name, String text) throws IOException {
    Path path = new Path(runDirectory + "/" + name);
    FileSystem fs = FileSystem.get(URI.create(runDirectory), spark.sparkContext().hadoopConfiguration());
    try (OutputStream out = fs.create(path, false)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String stripSlash(String path) {
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
