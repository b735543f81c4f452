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

  @org.junit.jupiter.api.io.TempDir static Path work;

  /** Stands in for a private CA's PEM file, which the examples name through the environment. */
  private static Path caBundle() {
    try {
      Path pem = work.resolve("ca.pem");
      if (!Files.exists(pem)) Files.writeString(pem, "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n");
      return pem;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
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
    environment.put("CEPH_CA_BUNDLE", caBundle().toString());
    MigrationConfig config = ConfigLoader.load(example, environment);
    for (StoreConfig store : List.of(config.source().store(), config.destination().store())) {
      assertThat(store instanceof BucketConfig bucket ? bucket.bucket() : ((DirectoryConfig) store).path()).isNotBlank();
    }
  }

  /** The providers the examples name, configured as each one wants: addressing, credentials, endpoint form, CA. */
  @ParameterizedTest(name = "{0} {1}")
  @org.junit.jupiter.params.provider.CsvSource(textBlock = """
      # example,            side,        endpoint,                                              path-style, credentials,   ca-bundle
      s3-to-local.conf,     source,      '',                                                    false,      DEFAULT_CHAIN, false
      cos-to-aws.conf,      source,      https://s3.eu-de.cloud-object-storage.appdomain.cloud, true,       IBM_IAM,       false
      cos-to-nfs.conf,      source,      https://s3.ap.cloud-object-storage.appdomain.cloud,    true,       STATIC,        false
      minio-to-volume.conf, source,      http://minio.internal:9000,                            true,       STATIC,        false
      oss-to-ceph.conf,     source,      https://oss-cn-hangzhou.aliyuncs.com,                  false,      STATIC,        false
      oss-to-ceph.conf,     destination, https://rgw.storage.internal,                          true,       STATIC,        true
      """)
  void eachProviderIsConfiguredAsItWants(String example, String side, String endpoint, boolean pathStyle,
      io.ferry.config.S3EndpointConfig.CredentialsType credentials, boolean caBundle) {
    Map<String, String> environment = new java.util.HashMap<>();
    for (String s : List.of("source", "destination")) {
      environment.put("ferry." + s + ".credentials.access-key-id", "EXAMPLEKEYID");
      environment.put("ferry." + s + ".credentials.secret-access-key", "example-secret");
      environment.put("ferry." + s + ".credentials.api-key", "example-api-key");
    }
    environment.put("CEPH_CA_BUNDLE", caBundle().toString());
    MigrationConfig config = ConfigLoader.load(Path.of("conf/examples", example), environment);
    BucketConfig bucket = (BucketConfig) (side.equals("source") ? config.source().store() : config.destination().store());
    assertThat(bucket.endpoint().endpoint()).isEqualTo(endpoint == null ? "" : endpoint);
    assertThat(bucket.endpoint().pathStyle()).isEqualTo(pathStyle);
    assertThat(bucket.endpoint().credentials().type()).isEqualTo(credentials);
    assertThat(bucket.endpoint().caBundle().isEmpty()).isEqualTo(!caBundle);
  }
}
