package io.ferry.spark;

import io.ferry.commit.ObjectResult;
import io.ferry.copy.RangeResult;
import io.ferry.report.DatasetFiles;
import io.ferry.report.Datasets;
import io.ferry.report.RunStats;
import java.io.Serializable;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * REPORT, on the executors: one partition of results written as one part of its dataset (Parquet and CSV in one pass,
 * {@link DatasetFiles}) while the run's statistics are gathered from the same rows ({@link RunStats}); the driver
 * merges one small {@code RunStats} per partition.
 */
public final class WriteDatasetFunction<T> implements Function2<Integer, Iterator<T>, Iterator<RunStats>> {
  private static final long serialVersionUID = 1L;

  private enum Kind { RANGES, OBJECTS }

  /** The copy stage's time, in buckets: the statistics' timeline. */
  private record Timeline(long startMillis, long endMillis, int buckets) implements Serializable {}

  private final Kind kind;
  private final String job;
  private final String run;
  private final String runDirectory;
  private final Broadcast<SerializableConfiguration> conf;
  private final Timeline timeline;
  private final boolean jsonLines;

  private WriteDatasetFunction(Kind kind, String job, String run, String runDirectory, Broadcast<SerializableConfiguration> conf,
      Timeline timeline, boolean jsonLines) {
    this.kind = kind;
    this.job = job;
    this.run = run;
    this.runDirectory = runDirectory;
    this.conf = conf;
    this.timeline = timeline;
    this.jsonLines = jsonLines;
  }

  /** The ranges dataset, with the copy stage's timeline ({@code buckets} buckets from start to end). */
  public static WriteDatasetFunction<RangeResult> ranges(String job, String run, String runDirectory,
      Broadcast<SerializableConfiguration> conf, long copyStartMillis, long copyEndMillis, int buckets) {
    return new WriteDatasetFunction<>(Kind.RANGES, job, run, runDirectory, conf, new Timeline(copyStartMillis, copyEndMillis,
        buckets), false);
  }

  /** The objects dataset, also as JSON lines when {@code jsonLines}. */
  public static WriteDatasetFunction<ObjectResult> objects(String job, String run, String runDirectory,
      Broadcast<SerializableConfiguration> conf, boolean jsonLines) {
    return new WriteDatasetFunction<>(Kind.OBJECTS, job, run, runDirectory, conf, new Timeline(0, 0, 0), jsonLines);
  }

  @Override
  @SuppressWarnings("unchecked") // the factories tie Kind to T
  public Iterator<RunStats> call(Integer part, Iterator<T> rows) throws Exception {
    RunStats stats = new RunStats(timeline.startMillis(), timeline.endMillis(), timeline.buckets());
    String attempt = String.valueOf(TaskContext.get().taskAttemptId());
    if (kind == Kind.RANGES) {
      DatasetFiles.writePart(Datasets.ranges(job, run), (Iterator<RangeResult>) rows, runDirectory, part, attempt,
          conf.value().value(), stats::add);
    } else if (!jsonLines) {
      DatasetFiles.writePart(Datasets.objects(job, run), (Iterator<ObjectResult>) rows, runDirectory, part, attempt,
          conf.value().value(), stats::add);
    } else {
      try (DatasetFiles.JsonLines<ObjectResult> lines = DatasetFiles.jsonLines(Datasets.objects(job, run), runDirectory, part, attempt,
          conf.value().value())) {
        DatasetFiles.writePart(Datasets.objects(job, run), (Iterator<ObjectResult>) rows, runDirectory, part, attempt,
            conf.value().value(), o -> {
              stats.add(o);
              lines.accept(o);
            });
      }
    }
    return List.of(stats).iterator();
  }
}
