package io.ferry.copy;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.ferry.config.ConfigLoader;
import io.ferry.config.MigrationConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;
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
      "http://10.0.0.1:9000       | { bucket = b, endpoint = \"https://10.0.0.1:9000\" }                | late-c2 | late-c2",
      "http://10.0.0.1:9000       | { bucket = b, endpoint = \"http://10.0.0.2:9000\", checksum-mode = when-supported }"
          + " | late-c2 | late-c2",
      "http://10.0.0.1:9000       | { bucket = b, endpoint = \"http://10.0.0.2:9000\", checksum-mode = when-supported,"
          + " unsigned-payload = true } | c1 | c1"})
  void theSecondCompilerStaysForTlsAndForSignedBytesWithoutNativeDigests(String source, String destination, String withNative,
      String withJdk) {
    String to = destination.startsWith("{") ? "type = s3, " + destination.substring(1, destination.length() - 1) + ", " + KEYS
        : destination;
    MigrationConfig c = ConfigLoader.fromConfig(ConfigFactory.parseString("ferry { source { bucket = a, endpoint = \"" + source + "\", "
        + KEYS + " }\n destination { " + to + " } }"), Map.of());
    assertThat(LocalJit.of(c.source(), c.destination(), true).flag()).isEqualTo(withNative);
    assertThat(LocalJit.of(c.source(), c.destination(), false).flag()).isEqualTo(withJdk);
  }

  /** Where BoringSSL's digests load (Linux x86-64: CI), the job's own choice gives signed uploads C1 alone. */
  @Test
  void signedUploadsGetC1AloneWhereTheNativeDigestsLoad() {
    boolean linuxX64 = System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64");
    if (!linuxX64) System.err.println("LocalJitTest: not Linux x86-64, so the job's own choice is not asserted here");
    MigrationConfig c = ConfigLoader.fromConfig(ConfigFactory.parseString("ferry { source { bucket = a, endpoint = "
        + "\"http://10.0.0.1:9000\", " + KEYS + " }\n destination { type = s3, bucket = b, endpoint = \"http://10.0.0.2:9000\", " + KEYS
        + " } }"), Map.of());
    if (linuxX64) assertThat(LocalJit.of(c.source(), c.destination()).flag()).isEqualTo("c1");
  }
}
