package io.ferry.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  private static final String MINIMAL = """
      ferry {
        source { bucket = media, credentials { access-key-id = AKID, secret-access-key = "s3cr3t-value-never-printed" } }
        destination.path = "/mnt/nfs/out"
      }
      """;

  private static MigrationConfig load(String hocon) {
    return ConfigLoader.fromConfig(ConfigFactory.parseString(hocon), Map.of());
  }

  private static BucketConfig bucket(StoreConfig store) {
    return (BucketConfig) store;
  }

  private static List<String> problems(String hocon) {
    try {
      load(hocon);
    } catch (ConfigException e) {
      return e.problems();
    }
    throw new AssertionError("expected a configuration error");
  }

  @Test
  void problemsOfEverySectionAreReportedTogether() {
    // one in the copy section, one in the reports, one in the limits: all three in one pass
    assertThat(problems("""
        ferry { source.bucket = b, destination.path = /tmp/x, copy.streams-per-task = 0, report.progress-interval = 1ms
          limits.bandwidth = -1 }"""))
        .anySatisfy(p -> assertThat(p).startsWith("ferry.copy.streams-per-task = 0"))
        .anySatisfy(p -> assertThat(p).startsWith("ferry.report.progress-interval"))
        .anySatisfy(p -> assertThat(p).startsWith("ferry.limits.bandwidth = -1"));
  }

  @Test
  void defaultsComeFromReferenceConf() {
    MigrationConfig c = load(MINIMAL);
    assertThat(c.jobName()).isEqualTo("ferry");
    assertThat(c.plan()).isEqualTo(new PlanConfig(64L << 20, 64L << 20, 128, 4656L << 20));
    assertThat(c.copy()).isEqualTo(new CopyConfig(16, 5, Duration.ofMillis(200), Duration.ofSeconds(10), Duration.ofSeconds(30), true,
        64 << 10));
    assertThat(bucket(c.source().store()).endpoint().region()).isEqualTo("us-east-1");
    assertThat(bucket(c.source().store()).endpoint().pathStyle()).isTrue();
    assertThat(bucket(c.source().store()).endpoint().checksumMode()).isEqualTo(S3EndpointConfig.ChecksumMode.WHEN_REQUIRED);
    assertThat(c.source().selection()).isEqualTo(Selection.ALL);
    assertThat(c.source().prefixes()).isEmpty();
    assertThat(c.source().manifest()).isEmpty();
    assertThat(c.destination().deleteExtraneous()).isFalse();
    assertThat(c.reportPath()).isEqualTo("reports");
    assertThat(c.sparkMaster()).isEqualTo("local[*]");
  }

  @Test
  void everyKeyMapsToItsField() {
    MigrationConfig c = load("""
        ferry {
          job.name = cos-to-nfs
          source {
            endpoint = "https://s3.jp-tok.cloud-object-storage.appdomain.cloud", region = jp-tok, path-style = false
            bucket = media, prefix = "2018", includes = ["**/*.mp4"], excludes = ["**/*.tmp"]
            prefixes = ["b/", "a", "a/x/"], min-size = 1KiB, max-size = 1GiB, modified-after = "2024-03-01"
            modified-before = "2024-03-02T12:00:00Z"
            credentials { type = default-chain }
            checksum-mode = when-supported
          }
          destination { path = "/mnt/nfs/out", delete-extraneous = true }
          plan { part-size = 16MiB, bundle-size = 32MiB, bundle-objects = 7, copy-cutoff = 0, listing-shards = 99 }
          copy { streams-per-task = 3, retries = 2, backoff = 1s, max-backoff = 5s, stall-timeout = 10s, skip-unchanged = false
            buffer-size = 256KiB }
          report.path = "s3a://reports/ferry"
          spark.master = "local[2]"
        }
        """);
    assertThat(c.jobName()).isEqualTo("cos-to-nfs");
    assertThat(bucket(c.source().store()).endpoint()).isEqualTo(new
        S3EndpointConfig("https://s3.jp-tok.cloud-object-storage.appdomain.cloud",
        "jp-tok", false, new S3EndpointConfig.Credentials(S3EndpointConfig.CredentialsType.DEFAULT_CHAIN, "", new Secret(""),
            new Secret(""),
        "https://iam.cloud.ibm.com/identity/token"), S3EndpointConfig.ChecksumMode.WHEN_SUPPORTED, false, "", false));
    // a prefix is a folder ("2018" is "2018/"); prefixes inside another are dropped, the rest sorted
    assertThat(c.source()).isEqualTo(new SourceConfig(new BucketConfig(bucket(c.source().store()).endpoint(), "media", "2018/"),
        new Selection(List.of("a/", "b/"), List.of("**/*.mp4"), List.of("**/*.tmp"), 1024, 1L << 30, 1_709_251_200_000L,
            1_709_380_800_000L),
        "", true, false, ArchivedConfig.FAIL, ChangesConfig.LISTING));
    assertThat(c.destination()).isEqualTo(new DestinationConfig(new DirectoryConfig("/mnt/nfs/out"), DestinationConfig.ServerSideCopy.AUTO,
        new CutOver(true, -1, 50, "")));
    assertThat(c.plan()).isEqualTo(new PlanConfig(16L << 20, 32L << 20, 7, 0, 99));
    assertThat(c.copy()).isEqualTo(new CopyConfig(3, 2, Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(10), false,
        256 << 10));
    assertThat(c.reportPath()).isEqualTo("s3a://reports/ferry");
    assertThat(c.sparkMaster()).isEqualTo("local[2]");
  }

  @Test
  void aSettingTakenAwayIsNamedWithWhyAndTheFix() {
    assertThat(problems(MINIMAL + "ferry.plan.copy-while-listing = true")).containsExactly("ferry.plan.copy-while-listing (String: 5)"
        + " is no longer a Ferry setting: copying while the listing went on never made a measured run faster, and runs now always"
        + " plan the whole listing first; remove it from the job");
  }

  @Test
  void unknownKeysAreNamedWithTheNearestKnownKey() {
    assertThat(problems(MINIMAL + "ferry.plan.part-szie = 8MiB\nferry.copy.streams = 4\nferry.zzz = 1"))
        .containsExactlyInAnyOrder(
            "ferry.plan.part-szie (String: 5) is not a Ferry setting: did you mean ferry.plan.part-size?",
            "ferry.copy.streams (String: 6) is not a Ferry setting: did you mean ferry.copy.streams-per-task?",
            "ferry.zzz (String: 7) is not a Ferry setting; see reference.conf for the settings");
  }

  @Test
  void wrongTypesNameTheKeyTheValueAndWhatIsAllowed() {
    assertThat(problems(MINIMAL + "ferry.plan.part-size = lots\nferry.copy.retries = five\nferry.copy.stall-timeout = soon"))
        .containsExactlyInAnyOrder(
            "ferry.plan.part-size = lots (String: 5) is not auto, or a size such as 64MiB, 512KiB or 1GiB",
            "ferry.copy.retries = five (String: 6) is not a whole number",
            "ferry.copy.stall-timeout = soon (String: 7) is not a duration such as 200ms, 30s or 5m");
  }

  @Test
  void rangesAreChecked() {
    assertThat(problems(MINIMAL + "ferry.copy.streams-per-task = 0\nferry.plan.part-size = 6GiB"))
        .containsExactlyInAnyOrder(
            "ferry.copy.streams-per-task = 0 (String: 5) must be auto, or between 1 and 256",
            "ferry.plan.part-size = 6GiB (String: 6) must be at most 5GiB (S3's largest part)");
  }

  @Test
  void streamsPerTaskAutoStartsAtTheFixedDefaultAndClimbsNoHigherThanItsMaximum() {
    CopyConfig auto = load(MINIMAL + "ferry.copy.streams-per-task = auto").copy();
    assertThat(auto.autoStreams()).isTrue();
    assertThat(auto.streamsPerTask()).isEqualTo(16);
    assertThat(auto.threadsPerTask()).isEqualTo(64);
    CopyConfig fixed = load(MINIMAL + "ferry.copy.streams-per-task = 8").copy();
    assertThat(fixed.autoStreams()).isFalse();
    assertThat(fixed.threadsPerTask()).isEqualTo(8);
    assertThat(problems(MINIMAL + "ferry.copy.streams-per-task = Auto")).containsExactly(
        "ferry.copy.streams-per-task = Auto (String: 5) must be auto, or a whole number between 1 and 256");
    assertThat(problems(MINIMAL + "ferry.copy.streams-per-task = auto\nferry.copy.max-streams-per-task = 8")).containsExactly(
        "ferry.copy.max-streams-per-task = 8 (String: 6) must be between 16 and 256 (auto starts at 16)");
  }

  @Test
  void partSizeAutoStartsAtTheFixedDefaultAndABadSizeSaysWhatItExpects() {
    PlanConfig auto = load(MINIMAL + "ferry.plan.part-size = auto").plan();
    assertThat(auto.autoPartSize()).isTrue();
    assertThat(auto.partSize()).isEqualTo(64L << 20);
    assertThat(auto.withPartSize(8L << 20)).satisfies(p -> assertThat(p.partSize()).isEqualTo(8L << 20))
        .satisfies(p -> assertThat(p.autoPartSize()).isTrue());
    assertThat(load(MINIMAL + "ferry.plan.part-size = 32MiB").plan().autoPartSize()).isFalse();
    assertThat(problems(MINIMAL + "ferry.plan.part-size = Auto")).containsExactly(
        "ferry.plan.part-size = Auto (String: 5) is not auto, or a size such as 64MiB, 512KiB or 1GiB");
  }

  @Test
  void missingBucketDestinationAndCredentialsSayWhatToWrite() {
    assertThat(problems("ferry.job.name = x"))
        .contains("ferry.source.bucket is not set: name the bucket to copy from, e.g. source.bucket = \"media-archive\"")
        .contains("ferry.destination.path is not set: name the directory to copy into, e.g. destination.path = \"/mnt/nfs/migrated\"")
        .anySatisfy(p ->
        assertThat(p).startsWith("ferry.source.credentials.access-key-id is empty: set it, e.g. access-key-id = ${?SRC_ACCESS_KEY_ID}"))
        .anySatisfy(p -> assertThat(p).startsWith("ferry.source.credentials.secret-access-key is empty"));
  }

  @Test
  void enumsListTheirValues() {
    assertThat(problems(MINIMAL + "ferry.source.checksum-mode = always"))
        .containsExactly("ferry.source.checksum-mode = always (String: 5) must be one of when-supported | when-required");
  }

  @Test
  void anAssumedRoleIsReadAndEachMistakeNamesItsKey() {
    MigrationConfig c = load(MINIMAL + """
        ferry.source.credentials { type = assume-role, access-key-id = "", role-arn = "arn:aws:iam::123456789012:role/r" }
        """);
    S3EndpointConfig.Credentials credentials = bucket(c.source().store()).endpoint().credentials();
    assertThat(credentials.type()).isEqualTo(S3EndpointConfig.CredentialsType.ASSUME_ROLE);
    assertThat(credentials.role()).isEqualTo(new S3EndpointConfig.Role("arn:aws:iam::123456789012:role/r", new Secret(""), "ferry",
        java.time.Duration.ofHours(1), ""));
    assertThat(problems(MINIMAL + """
        ferry.source.credentials { type = assume-role, access-key-id = K, secret-access-key = "", role-arn = "my-role",
          session-name = "a b", duration = 5m, sts-endpoint = "http://sts.example.com" }
        ferry.destination { type = s3, bucket = b, credentials { access-key-id = k, secret-access-key = s, role-arn = "arn:x" } }
        """)).extracting(p -> p.substring(0, p.indexOf(' '))).containsExactlyInAnyOrder("ferry.source.credentials.role-arn",
        "ferry.source.credentials.session-name", "ferry.source.credentials.duration", "ferry.source.credentials.sts-endpoint",
        "ferry.source.credentials.secret-access-key", "ferry.destination.credentials.role-arn");
  }

  @Test
  void archivedObjectsSettingsAreReadAndEachMistakeNamesItsKeyAndTheValuesItTakes() {
    MigrationConfig c = load(MINIMAL + "ferry.source { archived = restore, restore { tier = bulk, days = 3, wait = 2h, poll = 30s } }");
    assertThat(c.source().archived()).isEqualTo(new ArchivedConfig(ArchivedConfig.Policy.RESTORE, "Bulk", 3,
        java.time.Duration.ofHours(2), java.time.Duration.ofSeconds(30)));
    assertThat(load(MINIMAL).source().archived()).as("opt-in: archived objects fail by default").isEqualTo(ArchivedConfig.FAIL);
    assertThat(problems(MINIMAL + "ferry.source { archived = skip, manifest = \"s3://b/keys.txt\", manifest-check = false }"))
        .singleElement().asString().startsWith("ferry.source.archived = skip").contains("manifest-check = true");
    assertThat(problems(MINIMAL + "ferry.source { archived = thaw, restore { tier = fast, days = 0, wait = -1s, poll = 0s } }"))
        .extracting(p -> p.substring(0, p.indexOf(' ')))
        .containsExactly("ferry.source.archived", "ferry.source.restore.tier", "ferry.source.restore.days", "ferry.source.restore.wait",
            "ferry.source.restore.poll");
  }

  @Test
  void everyVersionIsOptInAndRefusedWhereItCannotHoldTogether() {
    assertThat(((BucketConfig) load(MINIMAL).source().store()).versions()).as("opt-in: current versions by default").isFalse();
    String bucket = "ferry.destination { type = s3, bucket = b, credentials.type = default-chain }";
    MigrationConfig all = load(MINIMAL + "ferry.source.versions = all\n" + bucket);
    assertThat(((BucketConfig) all.source().store()).versions()).isTrue();
    assertThat(((BucketConfig) all.destination().store()).versions()).as("a bucket destination's histories are listed too").isTrue();
    assertThat(((BucketConfig) load(MINIMAL + bucket).destination().store()).versions()).isFalse();
    assertThat(problems(MINIMAL + "ferry.source.versions = every")).singleElement().asString()
        .startsWith("ferry.source.versions = every").contains("current", "all");
    assertThat(problems(MINIMAL + "ferry.source { versions = all, manifest = \"s3://b/keys.txt\" }")).singleElement().asString()
        .startsWith("ferry.source.versions = all").contains("remove source.manifest");
    assertThat(problems(MINIMAL + "ferry.source { versions = all, archived = skip }")).singleElement().asString()
        .startsWith("ferry.source.versions = all").contains("source.archived = fail");
    assertThat(problems(MINIMAL + "ferry.source { versions = all }\nferry.destination.delete-extraneous = true")).singleElement()
        .asString().startsWith("ferry.destination.delete-extraneous = true").contains("versions = current");
    assertThat(problems("""
        ferry { source { type = file, path = "/mnt/in", versions = all }, destination.path = "/mnt/nfs/out" }
        """)).singleElement().asString().startsWith("ferry.source.versions = all").contains("source.type = s3");
  }

  @Test
  void aDeltaPassReadsEventsFromOneQueueOrFilesOfABucketsNotifications(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    assertThat(load(MINIMAL).source().changes()).isEqualTo(ChangesConfig.LISTING);
    String queue = "https://sqs.us-east-1.amazonaws.com/123456789012/changes";
    ChangesConfig events = load(MINIMAL + "ferry.source { changes = events, events { queue = \"" + queue + "\", hold = 10m } }")
        .source().changes();
    assertThat(events).isEqualTo(new ChangesConfig.Queue(queue, java.time.Duration.ofSeconds(1), java.time.Duration.ofMinutes(10),
        100_000));
    java.nio.file.Path lines = java.nio.file.Files.writeString(dir.resolve("events.jsonl"), "");
    assertThat(load(MINIMAL + "ferry.source { changes = events, events.files = [\"" + lines + "\"] }").source().changes())
        .isEqualTo(new ChangesConfig.EventFiles(List.of(lines.toAbsolutePath().toString())));
    assertThat(problems(MINIMAL + "ferry.source.changes = inventory")).singleElement().asString()
        .startsWith("ferry.source.changes = inventory").contains("listing", "events", "inventory-diff");
    java.nio.file.Path manifest = java.nio.file.Files.writeString(dir.resolve("manifest.json"), "{}");
    assertThat(load(MINIMAL + "ferry.source { changes = inventory-diff, inventory-diff { older = \"" + manifest + "\", newer ="
        + " \"s3://inventories/media/2026-12-06T01-00Z/manifest.json\" } }").source().changes())
        .isEqualTo(new ChangesConfig.InventoryDiff(manifest.toString(), "s3://inventories/media/2026-12-06T01-00Z/manifest.json"));
    assertThat(problems(MINIMAL + "ferry.source { changes = inventory-diff, inventory-diff.older = \"" + manifest + "\" }"))
        .singleElement().asString().startsWith("ferry.source.inventory-diff.newer = ").contains("manifest.json");
    assertThat(problems(MINIMAL + "ferry.source.inventory-diff.older = \"" + manifest + "\"")).singleElement().asString()
        .startsWith("ferry.source.changes = listing").contains("set source.changes = inventory-diff");
    assertThat(problems(MINIMAL + "ferry.source.changes = events")).singleElement().asString()
        .startsWith("ferry.source.changes = events needs a place").contains("queue = an SQS queue URL", "files = [");
    assertThat(problems(MINIMAL + "ferry.source.events.queue = \"" + queue + "\"")).singleElement().asString()
        .startsWith("ferry.source.changes = listing").contains("set source.changes = events");
    assertThat(problems(MINIMAL + "ferry.source { changes = events, events { queue = changes, files = [\"" + lines + "\"] } }"))
        .singleElement().asString().startsWith("ferry.source.events.files = [").contains("one place", "queue = an SQS queue URL");
    assertThat(problems(MINIMAL + "ferry.source { changes = events, events.queue = changes }")).singleElement().asString()
        .startsWith("ferry.source.events.queue = changes").contains("https://sqs.us-east-1.amazonaws.com/");
    assertThat(problems(MINIMAL + "ferry.source { changes = events, events { files = [\"" + dir.resolve("none") + "\"] } }"))
        .singleElement().asString().startsWith("ferry.source.events.files = ").contains("readable files");
    assertThat(problems(MINIMAL + "ferry.source { changes = events, events { queue = \"" + queue + "\", wait = 30s, hold = 1s"
        + ", max-messages = 0 } }")).hasSize(3);
    assertThat(problems(MINIMAL + "ferry.source { changes = events, events { queue = \"" + queue + "\", wait = 0s } }"))
        .singleElement().asString().startsWith("ferry.source.events.wait = 0s").contains("between 1s and 20s");
    assertThat(problems(MINIMAL + "ferry.source { changes = events, events.queue = \"https://user:pass@sqs.example/1/q\" }"))
        .singleElement().asString().startsWith("ferry.source.events.queue = ").contains("must be a queue URL");
    assertThat(problems(MINIMAL + "ferry.source { changes = events, events.queue = \"" + queue + "\", symlinks = copy }"))
        .singleElement().asString().startsWith("ferry.source.changes = events").contains("source.symlinks = report");
    assertThat(problems(MINIMAL + "ferry.source { changes = events, events.queue = \"" + queue + "\", manifest = \"s3://b/k\" }"))
        .singleElement().asString().startsWith("ferry.source.changes = events").contains("source.manifest");
    assertThat(problems(MINIMAL + "ferry.source { changes = events, events.queue = \"" + queue + "\", versions = all }"))
        .singleElement().asString().startsWith("ferry.source.changes = events").contains("versions = current");
    assertThat(problems("ferry { source { type = file, path = \"/mnt/in\", changes = events, events.queue = \"" + queue + "\" }"
        + ", destination.path = \"/mnt/out\" }")).singleElement().asString().startsWith("ferry.source.changes = events")
        .contains("source.type = s3");
  }

  @Test
  void aBucketDestinationHasItsOwnEndpointCredentialsAndWriteSettings() {
    MigrationConfig c = load(MINIMAL + """
        ferry.destination {
          type = s3, endpoint = "http://other:9000", region = eu-de, path-style = false, bucket = copy, prefix = "moved/"
          credentials { type = ibm-iam, api-key = "iam-api-key-value", token-url = "http://127.0.0.1:1/token" }
          checksum-mode = when-supported, unsigned-payload = true
          storage-class = GLACIER_IR, server-side-encryption = "aws:kms", kms-key-id = key-1, server-side-copy = never
          tags { project = archive, "migrated-by" = ferry }
        }
        """);
    DestinationConfig d = c.destination();
    BucketConfig b = bucket(d.store());
    assertThat(b.endpoint()).isEqualTo(new S3EndpointConfig("http://other:9000", "eu-de", false,
        new S3EndpointConfig.Credentials(S3EndpointConfig.CredentialsType.IBM_IAM, "", new Secret(""), new Secret("iam-api-key-value"),
        "http://127.0.0.1:1/token"), S3EndpointConfig.ChecksumMode.WHEN_SUPPORTED, true, "", false));
    assertThat(List.of(b.bucket(), b.prefix(), b.writes().storageClass(), b.writes().serverSideEncryption(), b.writes().kmsKeyId()))
        .containsExactly("copy", "moved/", "GLACIER_IR", "aws:kms", "key-1");
    assertThat(d.serverSideCopy()).isEqualTo(DestinationConfig.ServerSideCopy.NEVER);
    assertThat(b.writes().tags()).containsExactly(Map.entry("migrated-by", "ferry"), Map.entry("project", "archive"));
    assertThat(d.toString()).doesNotContain("iam-api-key-value");
  }

  @Test
  void keptStorageClassesAreNamedFromTheSourcesKindOfServiceAndLinksCopiedTakeTheirFormFromTheDestination() {
    MigrationConfig c = load("""
        ferry {
          source { endpoint = "https://oss-cn-hangzhou.aliyuncs.com", bucket = media, credentials.type = default-chain }
          destination { type = s3, endpoint = "http://minio:9000", bucket = copy, storage-class = keep, credentials.type = default-chain }
        }
        """);
    assertThat(bucket(c.destination().store()).writes().classesFrom()).isEqualTo(Provider.OSS);
    assertThat(bucket(load(MINIMAL).source().store()).writes().classesFrom()).isNull();
    MigrationConfig intoDirectory = load("""
        ferry { source { type = file, path = "/mnt/in", symlinks = copy }, destination.path = "/mnt/out" }
        """);
    assertThat(((DirectoryConfig) intoDirectory.source().store()).symlinks()).isEqualTo(DirectoryConfig.Symlinks.COPY);
    assertThat(((DirectoryConfig) intoDirectory.destination().store()).symlinks()).as("its links listed")
        .isEqualTo(DirectoryConfig.Symlinks.COPY);
    MigrationConfig intoBucket = load("""
        ferry {
          source { type = file, path = "/mnt/in", symlinks = copy }
          destination { type = s3, bucket = copy, credentials.type = default-chain }
        }
        """);
    assertThat(((DirectoryConfig) intoBucket.source().store()).symlinks()).isEqualTo(DirectoryConfig.Symlinks.COPY_AS_FILES);
    assertThat(problems("""
        ferry {
          source { type = file, path = "/mnt/in" }
          destination { type = s3, bucket = copy, credentials.type = default-chain, acl = copy }
        }
        """)).singleElement().asString().startsWith("ferry.destination.acl = copy").contains("the source is a directory");
    assertThat(problems("""
        ferry {
          source { type = file, path = "/mnt/in", hard-links = keep }
          destination { type = s3, bucket = copy, credentials.type = default-chain }
        }
        """)).singleElement().asString().startsWith("ferry.source.hard-links = keep").contains("set hard-links = separate");
    assertThat(((DirectoryConfig) load("""
        ferry { source { type = file, path = "/mnt/in", hard-links = keep }, destination.path = "/mnt/out" }
        """).source().store()).hardLinks()).isTrue();
    assertThat(problems("""
        ferry { source { type = file, path = "/mnt/in", symlinks = copy_as_files }, destination.path = "/mnt/out" }
        """)).singleElement().asString().startsWith("ferry.source.symlinks = copy_as_files").contains("copy (copy each link as a link");
  }

  @Test
  void aBucketDestinationNeedsPartsOfAtLeastFiveMebibytes() {
    assertThat(problems(MINIMAL + """
        ferry.destination { type = s3, bucket = copy, credentials { access-key-id = a, secret-access-key = b } }
        ferry.plan.part-size = 3MiB
        """)).containsExactly("ferry.plan.part-size = 3MiB (String: 6) is too small for a bucket destination: S3 multipart"
        + " parts must be at least 5MiB (except the last); set ferry.plan.part-size to 5MiB or more");
  }

  @Test
  void aFileSourceNeedsAPathAndServerSideCopyNeedsABucketSource() {
    assertThat(problems("""
        ferry.source.type = file
        ferry.destination { type = s3, bucket = copy, server-side-copy = always, credentials { access-key-id = a, secret-access-key = b } }
        """)).containsExactlyInAnyOrder(
        "ferry.source.path is not set: name the directory to copy from, e.g. source.path = \"/mnt/nfs/exports\"",
        "ferry.destination.server-side-copy = always (String: 2) needs a bucket source; set it to auto or never for a file source");
    assertThat(problems(MINIMAL + "ferry.destination.type = tape"))
        .singleElement().asString().startsWith("ferry.destination.type = tape (String: 5) must be s3");
  }

  @Test
  void serverSideCopyIsChosenForTheSameServiceAndIdentity() {
    S3EndpointConfig a = S3EndpointConfig.withKeys("http://s3.local:9000/", "us-east-1", "id", "secret");
    S3EndpointConfig sameService = S3EndpointConfig.withKeys("HTTP://s3.local:9000", "us-east-1", "id", "secret");
    S3EndpointConfig otherKeys = S3EndpointConfig.withKeys("http://s3.local:9000", "us-east-1", "id2", "secret");
    S3EndpointConfig otherHost = S3EndpointConfig.withKeys("http://s3.other:9000", "us-east-1", "id", "secret");
    SourceConfig source = SourceConfig.all(new BucketConfig(a, "src", ""));
    java.util.function.BiFunction<S3EndpointConfig, DestinationConfig.ServerSideCopy, Boolean> serverSide = (endpoint, mode) ->
        new DestinationConfig(new BucketConfig(endpoint, "dst", ""), mode).serverSideCopyFrom(source);
    assertThat(serverSide.apply(sameService, DestinationConfig.ServerSideCopy.AUTO)).isTrue();
    assertThat(serverSide.apply(otherKeys, DestinationConfig.ServerSideCopy.AUTO)).isFalse();
    assertThat(serverSide.apply(otherHost, DestinationConfig.ServerSideCopy.AUTO)).isFalse();
    assertThat(serverSide.apply(otherHost, DestinationConfig.ServerSideCopy.ALWAYS)).isTrue();
    assertThat(serverSide.apply(sameService, DestinationConfig.ServerSideCopy.NEVER)).isFalse();
    assertThat(new DestinationConfig(new DirectoryConfig("/x")).serverSideCopyFrom(source)).isFalse();
  }

  @Test
  void theSecretIsNeverEchoed() {
    String secret = "s3cr3t-value-never-printed";
    List<String> problems = problems(MINIMAL + "ferry.source.credentials.secret-access-key = [\"" + secret + "\"]");
    assertThat(String.join("\n", problems)).doesNotContain(secret).contains("secret-access-key = ****");
    MigrationConfig ok = load(MINIMAL);
    assertThat(ok.toString()).doesNotContain(secret);
    assertThat(bucket(ok.source().store()).endpoint().credentials().secretAccessKey().reveal()).isEqualTo(secret);
  }

  @Test
  void temporaryKeysCarryTheirSessionTokenWhichIsNeverEchoed() {
    String token = "session-token-never-printed";
    MigrationConfig ok = load(MINIMAL + "ferry.source.credentials.session-token = \"" + token + "\"");
    assertThat(ok.toString()).doesNotContain(token);
    assertThat(bucket(ok.source().store()).endpoint().credentials().sessionToken().reveal()).isEqualTo(token);
    List<String> problems = problems(MINIMAL + "ferry.source.credentials { type = default-chain, session-token = \"" + token + "\" }");
    assertThat(String.join("\n", problems)).doesNotContain(token).contains("ferry.source.credentials.session-token")
        .contains("credentials.type = static");
  }

  @Test
  void anApiKeyOfTheWrongTypeIsNeverEchoedAndItsTokenUrlMustBeHttps() {
    String key = "ibm-api-key-never-printed";
    List<String> problems = problems(MINIMAL + "ferry.source.credentials { type = ibm-iam, api-key = [\"" + key + "\"],"
        + " token-url = \"http://iam.example.com/identity/token\" }");
    assertThat(String.join("\n", problems)).doesNotContain(key).contains("api-key = ****")
        .contains("ferry.source.credentials.token-url = http://iam.example.com/identity/token").contains("must be an https:// URL");
    assertThat(load(MINIMAL + "ferry.source.credentials { type = ibm-iam, api-key = k, token-url = \"http://127.0.0.1:8080/token\" }")
        .source().store().describe()).as("plain http that stays on this host").isNotEmpty();
  }

  @Test
  void theCutOverPassHasACapAPlaceToMoveToAndNeverRunsFromAManifestUnlessItIsComplete(@TempDir Path dir) throws Exception {
    assertThat(load(MINIMAL).destination().cutOver()).isEqualTo(new CutOver(false, -1, 50, ""));
    assertThat(load(MINIMAL + "ferry.destination { delete-extraneous = true, max-delete = 1000 }").destination().cutOver())
        .isEqualTo(new CutOver(true, 1000, -1, ""));
    assertThat(load(MINIMAL + "ferry.destination { max-delete = \"12.5%\", delete-to = \"/mnt/nfs/deleted\" }").destination().cutOver())
        .isEqualTo(new CutOver(false, -1, 12.5, "/mnt/nfs/deleted"));
    assertThat(problems(MINIMAL + "ferry.destination.max-delete = \"120%\""))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING).startsWith("ferry.destination.max-delete = 120%")
        .contains("a count");
    assertThat(problems(MINIMAL + "ferry.destination.max-delete = lots")).hasSize(1);
    assertThat(problems(MINIMAL + "ferry.destination.delete-to = \"/mnt/nfs/out/old\""))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("must be a directory outside ferry.destination.path");
    assertThat(problems(MINIMAL + "ferry.destination.delete-to = \"/mnt\"")).hasSize(1);
    String bucket = MINIMAL + "ferry.destination { type = s3, bucket = b, credentials { access-key-id = K, secret-access-key = S } %s }";
    assertThat(problems(bucket.formatted(", delete-to = \"old/\""))).singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("needs ferry.destination.prefix");
    assertThat(problems(bucket.formatted(", prefix = live, delete-to = \"live/old\""))).hasSize(1);
    assertThat(load(bucket.formatted(", prefix = live, delete-to = old")).destination().cutOver().moveTo()).isEqualTo("old/");

    Path manifest = java.nio.file.Files.writeString(dir.resolve("keys"), "a\n");
    String withManifest = MINIMAL + "ferry { source.manifest = \"" + manifest + "\", destination.delete-extraneous = true %s }";
    assertThat(problems(withManifest.formatted(""))).singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("would delete every object the manifest does not name").contains("ferry.source.manifest-complete = true");
    assertThat(load(withManifest.formatted(", source.manifest-complete = true")).source().manifestComplete()).isTrue();
    assertThat(problems(MINIMAL + "ferry.source.manifest-complete = true")).hasSize(1);
  }

  @Test
  void theSourceTheDestinationTheirReportsAndWhereDeletionsGoStayApart() {
    String files = "ferry { source { type = file, path = \"%s\" }, destination.path = \"%s\" %s }";
    assertThat(problems(files.formatted("/data/in", "/data", ""))).singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("ferry.destination.path = /data").contains("overlaps the source (/data/in and /data)");
    assertThat(problems(files.formatted("/data", "/data/mirror", ""))).hasSize(1);
    assertThat(problems(files.formatted("/data/in", "/data/in", ""))).hasSize(1);
    assertThat(load(files.formatted("/data/in", "/data/inbox", "")).destination().describe()).isEqualTo("/data/inbox");
    assertThat(problems(files.formatted("/data/in", "/data/out",
        ", destination { delete-extraneous = true, delete-to = \"/data/in/old\" }")))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING).startsWith("ferry.destination.delete-to")
        .contains("overlaps the source");
    assertThat(problems(files.formatted("/data/in", "/data/out", ", report.path = \"/data/out/reports\"")))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING).startsWith("ferry.report.path")
        .contains("inside the destination");
    String buckets = """
        ferry {
          source { endpoint = "http://127.0.0.1:9000", bucket = b, prefix = "%s", credentials { access-key-id = K, secret-access-key = S } }
          destination { type = s3, endpoint = "http://127.0.0.1:9000/", bucket = %s, prefix = "%s"
            credentials { access-key-id = K2, secret-access-key = S2 } }
          report.path = "%s"
        }""";
    assertThat(problems(buckets.formatted("data/", "b", "data/mirror/", "reports"))).hasSize(1);
    assertThat(problems(buckets.formatted("", "b", "copy/", "reports"))).as("no prefix: the whole bucket").hasSize(1);
    assertThat(load(buckets.formatted("data/", "b", "datacopy/", "reports")).destination().describe()).contains("datacopy/");
    assertThat(load(buckets.formatted("data/", "c", "data/", "reports")).destination().describe()).contains("s3://c/data/");
    assertThat(problems(buckets.formatted("data/", "c", "",
        "s3a://c/reports"))).singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("lies inside the destination s3://c/");
    assertThat(problems(MINIMAL
        + "ferry.job.name = \"nightly.0123456789ab\"")).singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("must not end in '.' and 12 hex digits");
  }

  /**
   * Paths are compared as the filesystem resolves them: a destination, a delete-to or a report path reached through a
   * link into the source (or the source through one into the destination) is refused, with both real paths named.
   */
  @Test
  void overlapsAreFoundThroughSymbolicLinks(@TempDir Path dir) throws Exception {
    Path src = Files.createDirectories(dir.resolve("src/sub"));
    Path out = Files.createDirectories(dir.resolve("out"));
    Files.createSymbolicLink(dir.resolve("LINK"), dir.resolve("src"));
    Files.createSymbolicLink(dir.resolve("to-sub"), src);
    Files.createSymbolicLink(dir.resolve("to-out"), out);
    String real = dir.toRealPath().toString();
    String files = "ferry { source { type = file, path = \"%s\" }, destination.path = \"%s\" %s }";
    assertThat(problems(files.formatted(dir.resolve("src"), dir.resolve("LINK/sub"), "")))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING).startsWith("ferry.destination.path")
        .contains("overlaps the source").contains(real + "/src/sub").contains(real + "/src");
    assertThat(problems(files.formatted(dir.resolve("src"), dir.resolve("to-sub"), ""))).as("the destination a link into the source")
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING).contains("overlaps the source");
    assertThat(problems(files.formatted(dir.resolve("src"), dir.resolve("LINK/sub/not-yet/there"), "")))
        .as("a destination still to be made, below a link into the source").hasSize(1);
    assertThat(problems(files.formatted(dir.resolve("to-out/in"), dir.resolve("out"), ""))).as("the source through a link into it")
        .hasSize(1);
    assertThat(problems(files.formatted(dir.resolve("src"), dir.resolve("to-out"),
        ", destination { delete-extraneous = true, delete-to = \"" + dir.resolve("LINK/old") + "\" }")))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING).startsWith("ferry.destination.delete-to")
        .contains("overlaps the source");
    assertThat(problems(files.formatted(dir.resolve("src"), dir.resolve("out"),
        ", destination { delete-extraneous = true, delete-to = \"" + dir.resolve("to-out/old") + "\" }")))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING).contains("must be a directory outside");
    assertThat(problems(files.formatted(dir.resolve("src"), dir.resolve("out"), ", report.path = \"" + dir.resolve("LINK/r") + "\"")))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING).startsWith("ferry.report.path").contains("the source");
    assertThat(problems(files.formatted(dir.resolve("src"), dir.resolve("to-out"), ", report.path = \"" + dir.resolve("out/r") + "\"")))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING).contains("the destination");
    assertThat(load(files.formatted(dir.resolve("src"), dir.resolve("to-out"), "")).destination().describe())
        .as("a destination that is a link out of the source is fine").isEqualTo(dir.resolve("to-out").toString());
  }

  @Test
  void environmentSubstitutionAndCommandLineOverrides(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("job.conf");
    Files.writeString(file, MINIMAL + "ferry.source.credentials.access-key-id = ${?FERRY_TEST_SURELY_UNSET_VARIABLE}\n");
    // an unset optional variable leaves the earlier value
    MigrationConfig c = ConfigLoader.load(file, Map.of("ferry.plan.part-size", "5MiB", "ferry.job.name", "override"));
    assertThat(bucket(c.source().store()).endpoint().credentials().accessKeyId()).isEqualTo("AKID");
    assertThat(c.plan().partSize()).isEqualTo(5L << 20);
    assertThat(c.jobName()).isEqualTo("override");
  }

  @Test
  void unparsableFilesAndMissingFilesAreOneClearLine(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.conf");
    Files.writeString(file, "ferry { source { bucket = \n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
        .isInstanceOf(ConfigException.class).hasMessageStartingWith("cannot parse " + file);
    assertThatThrownBy(() -> ConfigLoader.load(dir.resolve("nope.conf"), Map.of()))
        .hasMessage("job file " + dir.resolve("nope.conf") + " does not exist or is not a file");
    Files.writeString(file, MINIMAL + "ferry.job.name = ${NOT_SET_ANYWHERE_FERRY}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
        .hasMessageContaining("NOT_SET_ANYWHERE_FERRY").hasMessageContaining("write ${?NAME}");
  }

  @Test
  void editDistanceSuggestions() {
    assertThat(Hocon.editDistance("part-szie", "part-size")).isEqualTo(2);
    assertThat(Hocon.nearest("plan.bundle-size", List.of("plan.part-size", "plan.bundle-size"))).contains("plan.bundle-size");
    assertThat(Hocon.nearest("something-else-entirely", List.of("plan.part-size"))).isEmpty();
  }
}
