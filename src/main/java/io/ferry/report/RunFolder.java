package io.ferry.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.ferry.ledger.LocalFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** A run's folder of reports, {@code <report.path>/<job>/<name>}: a local path or any Hadoop filesystem's. */
public final class RunFolder {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private final Configuration hadoop;
  private final String directory;

  public RunFolder(Configuration hadoop, String reportPath, String job, String name) {
    this.hadoop = hadoop;
    this.directory = (reportPath.endsWith("/") ? reportPath.substring(0, reportPath.length() - 1) : reportPath) + "/" + job + "/" + name;
  }

  /** The folder as configured: {@code <report.path>/<job>/<name>}. */
  public String directory() {
    return directory;
  }

  /** The folder as a fully qualified URI (file:/..., s3a://...), where executors write the datasets' parts. */
  public String qualified() throws IOException {
    return LocalFiles.of(URI.create(directory), hadoop).makeQualified(new Path(directory)).toString();
  }

  public Configuration hadoop() {
    return hadoop;
  }

  public void writeText(String name, String text) throws IOException {
    FileSystem fs = LocalFiles.of(URI.create(directory), hadoop);
    try (OutputStream out = fs.create(new Path(directory + "/" + name), false)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  public void writeJson(String name, Object value) throws IOException {
    writeText(name, JSON.writeValueAsString(value));
  }

  /** A run's aggregate copy rate, from its summary. */
  public record Rate(String run, double megabytesPerSecond) {}

  /** The aggregate rate of the newest run of {@code job} that copied bytes, or null. */
  public static Rate lastRate(Configuration hadoop, String reportPath, String job) throws IOException {
    return newest(hadoop, reportPath, job, (run, json) -> {
      double rate = json.at("/throughput/aggregateMBps").asDouble();
      return json.at("/bytes/copied").asLong() > 0 && rate > 0 ? new Rate(run, rate) : null;
    });
  }

  /** A delta pass's convergence, and the run that measured it. */
  public record Measured(String run, Convergence convergence) {}

  /** The convergence of the newest delta pass of {@code job}, or null. */
  public static Measured lastConvergence(Configuration hadoop, String reportPath, String job) throws IOException {
    return newest(hadoop, reportPath, job, (run, json) -> json.path("convergence").isObject()
        ? new Measured(run, JSON.treeToValue(json.get("convergence"), Convergence.class)) : null);
  }

  /** What a summary says, read from one of a run. */
  private interface Reading<T> {
    T read(String run, JsonNode summary) throws IOException;
  }

  /**
   * What the newest run's summary of {@code job} says that says something (not null), or null: run folders are named by
   * their start time, so the newest is the last in name order.
   */
  private static <T> T newest(Configuration hadoop, String reportPath, String job, Reading<T> reading) throws IOException {
    Path jobDir = new Path((reportPath.endsWith("/") ? reportPath.substring(0, reportPath.length() - 1) : reportPath) + "/" + job);
    FileSystem fs = LocalFiles.of(jobDir.toUri(), hadoop);
    if (!fs.exists(jobDir)) return null;
    List<String> runs = new ArrayList<>();
    for (FileStatus s : fs.listStatus(jobDir)) {
      if (s.isDirectory() && s.getPath().getName().matches("\\d{8}T\\d{6}Z-[0-9a-f]{4}")) runs.add(s.getPath().getName());
    }
    runs.sort(Comparator.reverseOrder());
    for (String run : runs) {
      Path summary = new Path(jobDir, run + "/summary.json");
      if (!fs.exists(summary)) continue;
      try (InputStream in = fs.open(summary)) {
        T said = reading.read(run, JSON.readTree(in));
        if (said != null) return said;
      }
    }
    return null;
  }
}
