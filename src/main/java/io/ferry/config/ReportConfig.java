package io.ferry.config;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * Where a run's reports go and how it reports while it runs.
 *
 * @param path a local path or s3a://bucket/prefix
 * @param progressInterval how often the console's progress line is printed (refreshed in place on a terminal)
 * @param jsonLines the objects dataset also as JSON lines, one object committed or failed per line, for log pipelines
 */
public record ReportConfig(String path, Duration progressInterval, boolean jsonLines) implements Serializable {
  public ReportConfig {
    Objects.requireNonNull(path, "path is null");
    Objects.requireNonNull(progressInterval, "progressInterval is null");
  }

  public ReportConfig(String path) {
    this(path, Duration.ofSeconds(5), false);
  }
}
