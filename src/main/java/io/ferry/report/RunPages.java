package io.ferry.report;

import io.ferry.ledger.LocalFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** {@code ferry report}: a run's page written again from its datasets, or several runs compared on one page. */
public final class RunPages {
  private RunPages() {}

  /** {@link #regenerate(Configuration, String)} with Hadoop's default configuration (local paths; s3a:// from its settings). */
  public static String regenerate(String run) throws IOException {
    return regenerate(new Configuration(), run);
  }

  public static void compare(List<String> runs, String page) throws IOException {
    compare(new Configuration(), runs, page);
  }

  /** Writes {@code <run>/report.html} from the run's summary and datasets; returns the page's location. */
  public static String regenerate(Configuration hadoop, String run) throws IOException {
    RunReader.Run read = RunReader.read(hadoop, run);
    String page = strip(run) + "/report.html";
    write(hadoop, page, HtmlReport.render(read.summary(), read.stats(), read.partitions()));
    return page;
  }

  /** Writes a page comparing {@code runs} (the first is the baseline) to {@code page}. */
  public static void compare(Configuration hadoop, List<String> runs, String page) throws IOException {
    List<RunReader.Run> read = new ArrayList<>();
    for (String run : runs) read.add(RunReader.read(hadoop, strip(run)));
    write(hadoop, page, HtmlReport.compare(read));
  }

  private static String strip(String directory) {
    return directory.endsWith("/") ? directory.substring(0, directory.length() - 1) : directory;
  }

  private static void write(Configuration hadoop, String page, String html) throws IOException {
    FileSystem fs = LocalFiles.of(new Path(page).toUri(), hadoop);
    try (OutputStream out = fs.create(new Path(page), true)) {
      out.write(html.getBytes(StandardCharsets.UTF_8));
    }
  }
}
