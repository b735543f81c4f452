package io.ferry.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * reference.conf and ConfigLoader agree, in Trino's way (assertFullMapping, assertRecordedDefaults): every key with a
 * default is read by the jobs below, between them each kind of source, destination and credentials, and every key
 * read has a default. A setting added to one side only fails here.
 */
class ConfigMappingTest {
  private static final List<String> JOBS = List.of(
      // bucket -> directory, static keys
      "ferry { source { bucket = b, credentials { access-key-id = a, secret-access-key = s } }"
          + ", destination.path = /tmp/ferry-map-d }",
      // directory -> bucket, default chain, every selection and the cut-over
      """
      ferry { source { type = file, path = /tmp/ferry-map-s, min-size = 1, max-size = 1GiB, modified-after = "2024-01-01",
                modified-before = "2025-01-01" }
        destination { type = s3, bucket = d, credentials.type = default-chain, delete-extraneous = true, delete-to = "" } }""",
      // bucket -> bucket on IBM IAM, from a manifest
      """
      ferry { source { bucket = b, manifest = "/tmp/ferry-map-manifest.keys", credentials { type = ibm-iam, api-key = k } }
        destination { type = s3, bucket = d, endpoint = "http://127.0.0.1:9000"
          credentials { access-key-id = a, secret-access-key = s } } }""");

  private static Set<String> referenceKeys() {
    Config ferry = ConfigFactory.parseResources(ConfigLoader.class.getClassLoader(), "reference.conf").getConfig("ferry");
    Set<String> keys = new TreeSet<>();
    ferry.entrySet().forEach(e -> keys.add(e.getKey()));
    ferry.root().keySet().forEach(section -> {
      Config c = ferry.getConfig(section);
      c.root().forEach((k, v) -> {
        if (v.valueType() == com.typesafe.config.ConfigValueType.OBJECT && ((com.typesafe.config.ConfigObject) v).isEmpty()) {
          keys.add(section + "." + k); // an empty object (destination.tags) is a key of its own
        }
      });
    });
    return keys;
  }

  @Test
  void everyKeyWithADefaultIsReadAndEveryKeyReadHasOne() {
    Set<String> read = new TreeSet<>();
    for (String job : JOBS) read.addAll(ConfigLoader.keysRead(ConfigFactory.parseString(job)));
    Set<String> defaults = referenceKeys();
    Set<String> unread = new TreeSet<>(defaults);
    unread.removeAll(read);
    Set<String> undefaulted = new TreeSet<>(read);
    undefaulted.removeAll(defaults);
    assertThat(unread).as("keys of reference.conf that no job reads").isEmpty();
    assertThat(undefaulted).as("keys read that reference.conf has no default for").isEmpty();
  }
}
