package io.ferry.report;

import io.ferry.commit.Deletion;
import io.ferry.commit.ObjectResult;
import io.ferry.copy.RangeResult;
import io.ferry.verify.Comparison;
import java.util.List;
import java.util.function.Function;

/**
 * The datasets a run writes (ranges, objects, partitions), as data: each column's name, type, nullability and how to read it from a result.
 * A public format (Parquet + CSV, see {@link DatasetFiles}). In {@code ranges}: {@code bytes} reached the
 * destination, {@code payload_bytes} passed through the executor (0 for a server-side copy), {@code method} says how
 * (get+write, get+upload, read+upload, server-side-copy).
 */
public final class Datasets {
  private Datasets() {}

  /** Column types; timestamps are epoch milliseconds (Parquet TIMESTAMP(MILLIS, UTC), CSV ISO-8601 in UTC). */
  public enum Type { STRING, INT, LONG, DOUBLE, TIMESTAMP }

  /** One column. {@code value} returns a String, Integer, Long (also for TIMESTAMP) or Double; null only if nullable. */
  public record Column<T>(String name, Type type, boolean nullable, Function<T, Object> value) {}

  /** A dataset: its name (the directory under the run's report) and its columns in order. */
  public record Table<T>(String name, List<Column<T>> columns) {}

  private static <T> Column<T> col(String name, Type type, Function<T, Object> value) {
    return new Column<>(name, type, false, value);
  }

  public static Table<RangeResult> ranges(String job, String run) {
    return new Table<>("ranges", List.of(
        col("job", Type.STRING, r -> job),
        col("run", Type.STRING, r -> run),
        col("key", Type.STRING, r -> r.object().key()),
        col("destination", Type.STRING, RangeResult::destination),
        col("task", Type.LONG, RangeResult::taskId),
        col("part", Type.INT, RangeResult::partNumber),
        col("parts", Type.INT, RangeResult::partCount),
        col("offset", Type.LONG, RangeResult::offset),
        col("length", Type.LONG, RangeResult::length),
        col("bytes", Type.LONG, RangeResult::bytes),
        col("payload_bytes", Type.LONG, RangeResult::payloadBytes),
        col("started_at", Type.TIMESTAMP, RangeResult::startedAtMillis),
        col("finished_at", Type.TIMESTAMP, RangeResult::finishedAtMillis),
        new Column<>("first_byte_ms", Type.DOUBLE, true, r -> r.firstByteNanos() < 0 ? null : r.firstByteNanos() / 1e6),
        col("duration_ms", Type.DOUBLE, r -> r.durationNanos() / 1e6),
        col("mb_per_s", Type.DOUBLE, RangeResult::megabytesPerSecond),
        col("attempts", Type.INT, RangeResult::attempts),
        col("throttled", Type.INT, RangeResult::throttled),
        col("method", Type.STRING, RangeResult::method),
        col("executor", Type.STRING, RangeResult::executorId),
        col("host", Type.STRING, RangeResult::host),
        col("streams", Type.INT, RangeResult::streams),
        col("status", Type.STRING, r -> r.status().name()),
        col("error", Type.STRING, RangeResult::error),
        col("crc32c", Type.STRING, RangeResult::crc32c),
        col("checksum", Type.STRING, RangeResult::checksum),
        col("expected", Type.STRING, RangeResult::expected),
        col("etag", Type.STRING, RangeResult::etag),
        col("object_size", Type.LONG, r -> r.object().size())));
  }

  public static Table<ObjectResult> objects(String job, String run) {
    return new Table<>("objects", List.of(
        col("job", Type.STRING, o -> job),
        col("run", Type.STRING, o -> run),
        col("key", Type.STRING, o -> o.object().key()),
        col("destination", Type.STRING, ObjectResult::destination),
        col("size", Type.LONG, o -> o.object().size()),
        col("etag", Type.STRING, o -> o.object().etag()),
        col("last_modified", Type.TIMESTAMP, o -> o.object().lastModifiedMillis()),
        col("parts", Type.INT, ObjectResult::parts),
        col("bytes", Type.LONG, ObjectResult::bytes),
        col("status", Type.STRING, o -> o.status().name()),
        col("error", Type.STRING, ObjectResult::error),
        col("verified", Type.STRING, ObjectResult::verified),
        col("checksum", Type.STRING, ObjectResult::checksum),
        col("not_carried", Type.STRING, ObjectResult::notCarried)));
  }

  /**
   * The cut-over pass: {@code deletion-plan}, every object it is about to delete, written before any is; and
   * {@code deletions}, what became of each (DELETED, MOVED, KEPT: the source holds it after all, FAILED).
   */
  public static Table<Deletion> deletions(String name, String job, String run) {
    return new Table<>(name, List.of(
        col("job", Type.STRING, d -> job),
        col("run", Type.STRING, d -> run),
        col("key", Type.STRING, d -> d.object().relativeKey()),
        col("destination", Type.STRING, Deletion::location),
        col("size", Type.LONG, d -> d.object().size()),
        col("last_modified", Type.TIMESTAMP, d -> d.object().lastModifiedMillis()),
        col("status", Type.STRING, d -> d.status().name()),
        col("detail", Type.STRING, Deletion::detail)));
  }

  /** One row per Spark task of the copy: where it ran, what it moved, when. */
  public static Table<PartitionStats> partitions(String job, String run) {
    return new Table<>("partitions", List.of(
        col("job", Type.STRING, p -> job),
        col("run", Type.STRING, p -> run),
        col("partition", Type.INT, PartitionStats::partition),
        col("executor", Type.STRING, PartitionStats::executor),
        col("host", Type.STRING, PartitionStats::host),
        col("ranges", Type.LONG, PartitionStats::ranges),
        col("objects", Type.LONG, PartitionStats::objects),
        col("bytes", Type.LONG, PartitionStats::bytes),
        col("started_at", Type.TIMESTAMP, PartitionStats::startedAtMillis),
        col("finished_at", Type.TIMESTAMP, PartitionStats::finishedAtMillis),
        col("wall_s", Type.DOUBLE, PartitionStats::seconds),
        col("mb_per_s", Type.DOUBLE, PartitionStats::megabytesPerSecond),
        col("retries", Type.LONG, PartitionStats::retries),
        col("failures", Type.LONG, PartitionStats::failures)));
  }

  /** {@code ferry verify}'s one row per object: how the destination compares with the source. */
  public static Table<Comparison.Result> verify(String job, String run) {
    return comparisons("verify", job, run);
  }

  /**
   * {@code ferry verify --manifest}'s completion manifest: the rows of {@link #verify}, in key order, one per key of
   * either listing.
   */
  public static Table<Comparison.Result> manifest(String job, String run) {
    return comparisons("manifest", job, run);
  }

  private static Table<Comparison.Result> comparisons(String name, String job, String run) {
    return new Table<>(name, List.of(
        col("job", Type.STRING, r -> job),
        col("run", Type.STRING, r -> run),
        col("key", Type.STRING, Comparison.Result::key),
        new Column<>("source_size", Type.LONG, true, r -> r.source() == null ? null : r.source().size()),
        new Column<>("destination_size", Type.LONG, true, r -> r.destination() == null ? null : r.destination().size()),
        col("status", Type.STRING, r -> r.status().name()),
        col("method", Type.STRING, Comparison.Result::method),
        col("detail", Type.STRING, Comparison.Result::detail),
        col("ranges", Type.INT, Comparison.Result::parts),
        col("bytes_read", Type.LONG, Comparison.Result::bytesRead),
        col("source_checksum", Type.STRING, Comparison.Result::sourceChecksum),
        col("destination_checksum", Type.STRING, Comparison.Result::destinationChecksum),
        col("source_etag", Type.STRING, r -> r.source() == null ? "" : r.source().etag()),
        col("destination_etag", Type.STRING, r -> r.destination() == null ? "" : r.destination().etag()),
        col("source_version", Type.STRING, r -> r.source() == null ? "" : r.source().versionId()),
        new Column<>("source_modified", Type.TIMESTAMP, true, r -> r.source() == null ? null : r.source().lastModifiedMillis()),
        new Column<>("destination_modified", Type.TIMESTAMP, true, r -> r.destination() == null ? null
            : r.destination().lastModifiedMillis())));
  }
}
