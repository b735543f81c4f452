package io.ferry.support;

import com.typesafe.config.ConfigFactory;
import io.ferry.config.ConfigLoader;
import io.ferry.config.MigrationConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Job files for tests, written as users write them (HOCON), with the secret passed as an override. */
public final class Jobs {
  private Jobs() {}

  public static String hocon(String endpoint, String identity, String bucket, Path destination, Path reports, String extra) {
    return """
        ferry {
          job.name = test
          source {
            endpoint = "%s"
            bucket = %s
            credentials.access-key-id = "%s"
          }
          destination.path = "%s"
          report.path = "%s"
          plan.part-size = 8MiB
          copy { retries = 3, backoff = 20ms, max-backoff = 200ms, stall-timeout = 10s }
        }
        %s
        """.formatted(endpoint, bucket, identity, destination, reports, extra);
  }

  public static MigrationConfig config(S3Backend s3, String endpoint, String bucket, Path destination, Path reports, String extra) {
    return ConfigLoader.fromConfig(ConfigFactory.parseString(hocon(endpoint, s3.identity(), bucket, destination, reports, extra)),
        Map.of("ferry.source.credentials.secret-access-key", s3.secret()));
  }

  public static Path file(Path dir, String name, String hocon) throws Exception {
    Files.createDirectories(dir);
    return Files.writeString(dir.resolve(name), hocon);
  }
}
