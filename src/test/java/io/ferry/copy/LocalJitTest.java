package io.ferry.copy;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.ferry.config.ConfigLoader;
import io.ferry.config.MigrationConfig;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LocalJitTest {
  private static final String KEYS = "credentials { access-key-id = AKID, secret-access-key = s3cr3t }";

  @ParameterizedTest(name = "{0} -> {1}: {2} with BoringSSL's digests, {3} with the JDK's")
  @CsvSource(delimiter = '|', value = {
      // source endpoint          | destination                                                         | JIT, native | JIT, JDK's
      "http://10.0.0.1:9000       | path = \"/mnt/out\"                                                 | c1      | c1",
      "https://s3.example.com     | path = \"/mnt/out\"                                                 | late-c2 | late-c2",
      "''                         | path = \"/mnt/out\"                                                 | late-c2 | late-c2",
      "http://10.0.0.1:9000       | { bucket = b, endpoint = \"http://10.0.0.1:9000\" }                 | c1      | c1",
      "http://10.0.0.1:9000       | { bucket = b, endpoint = \"http://10.0.0.2:9000\" }                 | c1      | late-c2",
      "http://10.0.0.1:9000       | { bucket = b, endpoint = \"http://10.0.0.2:9000\", unsigned-payload = true } | c1 | c1",
      "http://10.0.0.1:9000       | { bucket = b, endpoint = \"https://10.0.0.2:9000\", unsigned-payload = true } | late-c2 | late-c2",
      "http://10.0.0.1:9000       | { bucket = b, endpoint = \"https://10.0.0.1:9000\" }                | late-c2 | late-c2"})
  void theSecondCompilerStaysForTlsAndForSignedBytesWithoutNativeDigests(String source, String destination, String withNative,
      String withJdk) {
    String to = destination.startsWith("{") ? "type = s3, " + destination.substring(1, destination.length() - 1) + ", " + KEYS
        : destination;
    MigrationConfig c = ConfigLoader.fromConfig(ConfigFactory.parseString("ferry { source { bucket = a, endpoint = \"" + source + "\", "
        + KEYS + " }\n destination { " + to + " } }"), Map.of());
    assertThat(LocalJit.of(c.source(), c.destination(), true).flag()).isEqualTo(withNative);
    assertThat(LocalJit.of(c.source(), c.destination(), false).flag()).isEqualTo(withJdk);
  }
}
