package io.ferry.spark.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.config.ConfigLoader;
import io.ferry.config.MigrationConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The preflight runs while Spark starts; a Spark that fails to start ends the run cleanly, the destination as it was. */
class MigrationJobTest {
  @TempDir
  Path work;

  @Test
  void aSparkThatFailsToStartEndsTheRunWithItsErrorAndLeavesTheDestinationAsItWas() throws Exception {
    Path source = Files.createDirectories(work.resolve("source"));
    Files.writeString(source.resolve("a.txt"), "some bytes");
    Path destination = work.resolve("destination");
    Path job = work.resolve("job.conf");
    Files.writeString(job, """
        ferry {
          source { type = file, path = "%s" }
          destination.path = "%s"
          report.path = "%s"
        }
        """.formatted(source, destination, work.resolve("reports")));
    MigrationConfig config = ConfigLoader.load(job, Map.of());
    CompletableFuture<JavaSparkContext> spark = CompletableFuture.failedFuture(
        new IllegalArgumentException("A master URL must be set in your configuration"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    assertThatThrownBy(() -> MigrationJob.run(config, spark, new PrintStream(out, true, StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A master URL must be set in your configuration");

    assertThat(out.toString(StandardCharsets.UTF_8)).contains("Ferry ferry run").contains(" -> " + destination);
    try (var left = Files.list(destination)) {
      assertThat(left).as("the preflight's marker is removed, nothing is copied").isEmpty();
    }
    assertThat(work.resolve("reports")).doesNotExist();
  }

  @Test
  void aStartThatFailsWithACheckedErrorIsNamedAsSparkNotStarting() throws Exception {
    Path source = Files.createDirectories(work.resolve("source"));
    Path job = work.resolve("job.conf");
    Files.writeString(job, "ferry { source { type = file, path = \"%s\" }, destination.path = \"%s\" }"
        .formatted(source, work.resolve("destination")));
    MigrationConfig config = ConfigLoader.load(job, Map.of());
    CompletableFuture<JavaSparkContext> spark = CompletableFuture.failedFuture(new IOException("no port to bind"));

    assertThatThrownBy(() -> MigrationJob.run(config, spark, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Spark did not start: no port to bind");
  }
}
