package io.ferry.report;

import io.ferry.copy.ObjectResult;
import io.ferry.copy.RangeResult;
import java.sql.Timestamp;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The schemas of the two datasets a run writes, and the mapping of results into their rows. A public format.
 * In {@code ranges}: {@code bytes} reached the destination, {@code payload_bytes} passed through the executor (0 for a
 * server-side copy), {@code method} says how (get+write, get+upload, read+upload, server-side-copy).
 */
public final class Datasets {
  private Datasets() {}

  public static final StructType RANGES = new StructType()
      .add("job", DataTypes.StringType, false)
      .add("run", DataTypes.StringType, false)
      .add("key", DataTypes.StringType, false)
      .add("destination", DataTypes.StringType, false)
      .add("task", DataTypes.IntegerType, false)
      .add("part", DataTypes.IntegerType, false)
      .add("parts", DataTypes.IntegerType, false)
      .add("offset", DataTypes.LongType, false)
      .add("length", DataTypes.LongType, false)
      .add("bytes", DataTypes.LongType, false)
      .add("payload_bytes", DataTypes.LongType, false)
      .add("started_at", DataTypes.TimestampType, false)
      .add("finished_at", DataTypes.TimestampType, false)
      .add("first_byte_ms", DataTypes.DoubleType, true)
      .add("duration_ms", DataTypes.DoubleType, false)
      .add("mb_per_s", DataTypes.DoubleType, false)
      .add("attempts", DataTypes.IntegerType, false)
      .add("method", DataTypes.StringType, false)
      .add("executor", DataTypes.StringType, false)
      .add("host", DataTypes.StringType, false)
      .add("status", DataTypes.StringType, false)
      .add("error", DataTypes.StringType, false)
      .add("crc32c", DataTypes.StringType, false)
      .add("etag", DataTypes.StringType, false)
      .add("object_size", DataTypes.LongType, false);

  public static final StructType OBJECTS = new StructType()
      .add("job", DataTypes.StringType, false)
      .add("run", DataTypes.StringType, false)
      .add("key", DataTypes.StringType, false)
      .add("destination", DataTypes.StringType, false)
      .add("size", DataTypes.LongType, false)
      .add("etag", DataTypes.StringType, false)
      .add("last_modified", DataTypes.TimestampType, false)
      .add("parts", DataTypes.IntegerType, false)
      .add("bytes", DataTypes.LongType, false)
      .add("status", DataTypes.StringType, false)
      .add("error", DataTypes.StringType, false);

  public static Row rangeRow(String job, String run, RangeResult r) {
    return RowFactory.create(job, run, r.object().key(), r.destination(), r.taskId(), r.partNumber(), r.partCount(),
        r.offset(), r.length(), r.bytes(), r.payloadBytes(), new Timestamp(r.startedAtMillis()), new Timestamp(r.finishedAtMillis()),
        r.firstByteNanos() < 0 ? null : r.firstByteNanos() / 1e6, r.durationNanos() / 1e6, r.megabytesPerSecond(),
        r.attempts(), r.method(), r.executorId(), r.host(), r.status().name(), r.error(), r.crc32c(), r.etag(), r.object().size());
  }

  public static Row objectRow(String job, String run, ObjectResult o) {
    return RowFactory.create(job, run, o.object().key(), o.destination(), o.object().size(), o.object().etag(),
        new Timestamp(o.object().lastModifiedMillis()), o.parts(), o.bytes(), o.status().name(), o.error());
  }
}
