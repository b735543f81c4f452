package io.ferry.spark.run;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.config.ConfigLoader;
import io.ferry.spark.JobFailure;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class VerifyJobTest {
  /** verify compares current versions: a job that copies every version is sent to the setting that compares what it can. */
  @Test
  void aJobOfEveryVersionIsVerifiedByItsCurrentOnesAndSaysHow() {
    var config = ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString("""
        ferry {
          source { bucket = media, versions = all, credentials { access-key-id = A, secret-access-key = s } }
          destination.path = "/mnt/nfs/out"
        }
        """), Map.of());
    PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    // refused before Spark is asked for: no context is needed
    assertThatThrownBy(() -> VerifyJob.run(config, CompletableFuture.failedFuture(new AssertionError("Spark was asked for")),
        Commands.Verify.DIFFERENCES, out))
        .isInstanceOf(JobFailure.class).hasMessageContaining("-Dferry.source.versions=current");
  }
}
