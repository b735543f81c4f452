package io.ferry.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every example in conf/examples loads and validates, so the examples stay true as settings change. */
class ConfExamplesTest {
  static Stream<Path> examples() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("conf/examples"))) {
      List<Path> list = files.filter(p -> p.toString().endsWith(".conf")).sorted().toList();
      assertThat(list).isNotEmpty();
      return list.stream();
    }
  }

  @ParameterizedTest
  @MethodSource("examples")
  void exampleValidates(Path example) {
    // Credentials come from the environment in the examples; stand in for it here.
    Map<String, String> environment = new java.util.HashMap<>();
    for (String side : List.of("source", "destination")) {
      environment.put("ferry." + side + ".credentials.access-key-id", "EXAMPLEKEYID");
      environment.put("ferry." + side + ".credentials.secret-access-key", "example-secret");
      environment.put("ferry." + side + ".credentials.api-key", "example-api-key");
    }
    MigrationConfig config = ConfigLoader.load(example, environment);
    for (StoreConfig store : List.of(config.source().store(), config.destination().store())) {
      assertThat(store instanceof BucketConfig bucket ? bucket.bucket() : ((DirectoryConfig) store).path()).isNotBlank();
    }
  }
}
