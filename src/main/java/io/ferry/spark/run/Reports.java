package io.ferry.spark.run;

import io.ferry.commit.ObjectResult;
import io.ferry.config.ReportConfig;
import io.ferry.copy.RangeResult;
import io.ferry.report.PartitionStats;
import io.ferry.report.ReportWriter;
import io.ferry.report.RunInfo;
import io.ferry.report.RunStats;
import io.ferry.report.RunSummary;
import io.ferry.spark.WriteDatasetFunction;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * REPORT: the ranges and objects datasets written on the executors, one part per partition, while each partition's
 * statistics are gathered from the same rows (no per-range rows are collected); one Spark job per dataset. The driver
 * merges one small {@link RunStats} per partition and writes the summary ({@link ReportWriter}).
 */
final class Reports {
  private Reports() {}

  static RunSummary write(JavaSparkContext jsc, ReportConfig report, RunInfo info, JavaRDD<RangeResult> ranges,
      JavaRDD<ObjectResult> objects) throws IOException {
    String reportPath = report.path();
    jsc.setJobGroup("REPORT", "REPORT: statistics and the ranges, objects and partitions datasets", false);
    ReportWriter writer = new ReportWriter(jsc.hadoopConfiguration(), reportPath, info.job(), info.run());
    String directory = writer.qualifiedRunDirectory();
    Broadcast<SerializableConfiguration> conf = SerializableConfiguration.broadcast(jsc.sc());
    RunStats stats;
    try {
      stats = ranges.coalesce(slices(ranges))
          .mapPartitionsWithIndex(WriteDatasetFunction.ranges(info.job(), info.run(), directory, conf, info.copyStartMillis(),
              info.copyEndMillis(), ReportWriter.TIMELINE_BUCKETS), false)
          .reduce(RunStats::merge);
      stats.merge(objects.coalesce(slices(objects))
          .mapPartitionsWithIndex(WriteDatasetFunction.objects(info.job(), info.run(), directory, conf, report.jsonLines()), false)
          .reduce(RunStats::merge));
    } finally {
      conf.destroy();
    }
    // one small row per task of the copy, from the copy's own partitions (before any coalescing)
    List<PartitionStats> partitions = ranges.mapPartitionsWithIndex((i, rows) -> {
      PartitionStats p = PartitionStats.of(i, rows);
      return p == null ? Collections.<PartitionStats>emptyIterator() : List.of(p).iterator();
    }, true).collect();
    return writer.finish(info, stats, partitions);
  }

  /** A part file per partition, at most 16 per dataset: one for a small run, a few writers in parallel for a big one. */
  private static int slices(JavaRDD<?> rdd) {
    return Math.max(1, Math.min(rdd.getNumPartitions(), 16));
  }
}
