package io.ferry.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.copy.RangeResult;
import io.ferry.ledger.LocalFiles;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;

/**
 * A finished run read back from its folder: the summary, the statistics of its {@code ranges} dataset (one pass per
 * figure's bounds, then one to gather; memory bounded as on the cluster) and its {@code partitions} rows. What
 * {@code ferry report} renders a run's page and a comparison from, with no Spark and no access to the stores.
 */
public final class RunReader {
  private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** A run as its reports hold it. */
  public record Run(String directory, RunSummary summary, RunStats stats, List<PartitionStats> partitions) {}

  private RunReader() {}

  public static Run read(Configuration hadoop, String directory) throws IOException {
    Path dir = new Path(directory);
    FileSystem fs = LocalFiles.of(dir.toUri(), hadoop);
    Path summaryFile = new Path(dir, "summary.json");
    if (!fs.exists(summaryFile)) throw new IOException(directory
        + " holds no summary.json: name a run's folder (<report.path>/<job>/<run-id>)");
    RunSummary summary;
    try (InputStream in = fs.open(summaryFile)) {
      summary = JSON.readValue(in, RunSummary.class);
    }
    long[] bounds = {Long.MAX_VALUE, Long.MIN_VALUE};
    rows(fs, new Path(dir, "ranges.parquet"), hadoop, r -> {
      bounds[0] = Math.min(bounds[0], r.getLong("started_at", 0));
      bounds[1] = Math.max(bounds[1], r.getLong("finished_at", 0));
    });
    long copyStart = summary.throughput().copyStartedAtMillis();
    // the run's own timeline where the summary has it (its idle start counts in the verdict), else the ranges' span
    RunStats stats = copyStart > 0
        ? new RunStats(copyStart, copyStart + Math.round(summary.throughput().copyStageSeconds() * 1000), ReportWriter.TIMELINE_BUCKETS)
        : bounds[0] > bounds[1] ? new RunStats(0, 1, ReportWriter.TIMELINE_BUCKETS)
        : new RunStats(bounds[0], bounds[1], ReportWriter.TIMELINE_BUCKETS);
    rows(fs, new Path(dir, "ranges.parquet"), hadoop, r -> stats.add(range(r)));
    List<PartitionStats> partitions = new ArrayList<>();
    rows(fs, new Path(dir, "partitions.parquet"), hadoop, r -> partitions.add(new PartitionStats(r.getInteger("partition", 0),
        r.getString("executor", 0), r.getString("host", 0), r.getLong("ranges", 0), r.getLong("objects", 0), r.getLong("bytes", 0),
        r.getLong("started_at", 0), r.getLong("finished_at", 0), r.getLong("retries", 0), r.getLong("failures", 0))));
    return new Run(directory, summary, stats, partitions);
  }

  /** A row of the ranges dataset as the result it was written from (the columns the statistics read). */
  private static RangeResult range(Group r) {
    String key = r.getString("key", 0);
    double firstByteMs = r.getFieldRepetitionCount("first_byte_ms") == 0 ? -1 : r.getDouble("first_byte_ms", 0);
    return RangeResult.of(new StoreObject(key, key, r.getLong("object_size", 0), "", 0), r.getString("destination", 0))
        .task(r.getLong("task", 0)).part(r.getInteger("part", 0), r.getInteger("parts", 0), r.getLong("offset", 0), r.getLong("length", 0))
        .bytes(r.getLong("bytes", 0), r.getLong("payload_bytes", 0))
        .times(r.getLong("started_at", 0), r.getLong("finished_at", 0), firstByteMs < 0 ? -1 : (long) (firstByteMs * 1e6),
            (long) (r.getDouble("duration_ms", 0) * 1e6))
        .attempts(r.getInteger("attempts", 0), r.getType().containsField("throttled") ? r.getInteger("throttled", 0) : 0) // older: none
        .by(r.getString("method", 0), r.getString("executor", 0), r.getString("host", 0))
        .error(r.getString("error", 0)).digests(r.getString("crc32c", 0), r.getString("checksum", 0), r.getString("expected", 0))
        .upload("", r.getString("etag", 0))
        .streams(r.getType().containsField("streams") ? r.getInteger("streams", 0) : 0).build(); // older runs have none
  }

  /** Every row of a dataset's Parquet parts; none when the run has no such dataset (older runs have no partitions). */
  private static void rows(FileSystem fs, Path dataset, Configuration hadoop, Consumer<Group> row) throws IOException {
    if (!fs.exists(dataset)) return;
    for (FileStatus part : fs.listStatus(dataset)) {
      String name = part.getPath().getName();
      if (name.startsWith(".") || name.startsWith("_") || !name.endsWith(".parquet")) continue;
      try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), part.getPath()).withConf(hadoop).build()) {
        for (Group g = reader.read(); g != null; g = reader.read()) row.accept(g);
      }
    }
  }
}
