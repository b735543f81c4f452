package io.ferry.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.ferry.ledger.LocalFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
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
}
