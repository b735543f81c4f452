package io.ferry.report;

import static io.ferry.report.RunStats.Count.OBJECTS;
import static io.ferry.report.RunStats.Count.OBJECTS_ARCHIVED;
import static io.ferry.report.RunStats.Count.OBJECTS_CARRIED_IN_PART;
import static io.ferry.report.RunStats.Count.OBJECTS_COPIED;
import static io.ferry.report.RunStats.Count.OBJECTS_FAILED;
import static io.ferry.report.RunStats.Count.OBJECTS_MISSING;
import static io.ferry.report.RunStats.Count.OBJECTS_NOT_COPIED;
import static io.ferry.report.RunStats.Count.OBJECTS_RESTORING;
import static io.ferry.report.RunStats.Count.OBJECT_BYTES;
import static io.ferry.report.RunStats.Count.OBJECT_BYTES_COPIED;
import static io.ferry.report.RunStats.Count.PAYLOAD_BYTES;
import static io.ferry.report.RunStats.Count.RANGES;
import static io.ferry.report.RunStats.Count.RANGES_OK;
import static io.ferry.report.RunStats.Count.RETRIES;

import io.ferry.commit.ObjectResult;
import io.ferry.copy.RangeResult;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * REPORT, after the datasets' parts are written ({@link DatasetFiles}, on the executors, which also gathered the
 * run's statistics in the same pass, {@link RunStats}): marks each dataset done, then writes {@code summary.json} and
 * {@code report.html} beside them.
 */
public final class ReportWriter {
  /** Buckets of the throughput-over-time chart. */
  public static final int TIMELINE_BUCKETS = 120;

  private final RunFolder folder;

  public ReportWriter(Configuration hadoop, String reportPath, String job, String run) {
    this.folder = new RunFolder(hadoop, reportPath, job, run);
  }

  /** The run's folder as a fully qualified URI (file:/..., s3a://...), where executors write the datasets' parts. */
  public String qualifiedRunDirectory() throws IOException {
    return folder.qualified();
  }

  /** After every part of both datasets is written: their {@code _SUCCESS} markers, the summary and the HTML page. */
  public RunSummary finish(RunInfo info, RunStats stats, List<PartitionStats> partitions) throws IOException {
    String directory = folder.qualified();
    DatasetFiles.writePart(Datasets.partitions(info.job(), info.run()), partitions.iterator(), directory, 0, "driver", folder.hadoop(),
        p -> { });
    DatasetFiles.markDone(Datasets.ranges(info.job(), info.run()), directory, folder.hadoop());
    DatasetFiles.markDone(Datasets.objects(info.job(), info.run()), directory, folder.hadoop());
    DatasetFiles.markDone(Datasets.partitions(info.job(), info.run()), directory, folder.hadoop());
    info.stages().lap("report");
    RunSummary summary = summarize(info, stats);
    folder.writeJson("summary.json", summary);
    folder.writeText("report.html", HtmlReport.render(summary, stats, partitions));
    return summary;
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
    requests.putAll(s.requestsByMethod.counts());
    return new RunSummary(RunSummary.NAME, RunSummary.VERSION, info.job(), info.run(), info.source(), info.destination(),
        info.startedAt().toString(), finished.toString(), wall,
        new RunSummary.Objects(info.listed(), s.get(OBJECTS) - s.get(OBJECTS_MISSING) - s.get(OBJECTS_NOT_COPIED)
            - s.get(OBJECTS_RESTORING), s.get(OBJECTS_COPIED), info.skippedUnchanged(), s.get(OBJECTS_FAILED), s.get(OBJECTS_MISSING),
            info.deletions() == null ? 0 : info.deletions().deleted() + info.deletions().moved(), s.get(OBJECTS_NOT_COPIED),
            s.get(OBJECTS_ARCHIVED), s.get(OBJECTS_RESTORING), s.get(OBJECTS_CARRIED_IN_PART)),
        new RunSummary.Bytes(s.get(OBJECT_BYTES), s.get(OBJECT_BYTES_COPIED), s.get(PAYLOAD_BYTES)),
        new RunSummary.Ranges(s.get(RANGES), s.get(RANGES_OK), s.get(RANGES) - s.get(RANGES_OK), s.get(RETRIES), info.splitObjects()),
        new RunSummary.Throughput(copySeconds > 0 ? s.get(OBJECT_BYTES_COPIED) / 1e6 / copySeconds : 0, copySeconds,
            s.rateQuantile(0.5), s.rateQuantile(0.9), s.rateQuantile(0.99), s.maxMbps, s.firstByteQuantile(0.5),
            info.copyStartMillis()),
        requests, s.verifiedBy.counts(), info.stages().laps(), stragglers, failures, folder.directory(), info.deletions(),
        Verdict.of(s.evidence(wall, info.stages().laps(), copySeconds, info.limitMBps())), s.tunedStreams(), info.delta() == null ? null
            : Convergence.of(info.delta().from(), info.delta().keys(), info.delta().hoursSinceLast(), info.stages().laps()));
  }
}
