package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.ConfigLoader;
import io.ferry.support.SeedData;
import io.ferry.report.RunSummary;
import io.ferry.spark.run.MigrationJob;
import io.ferry.store.limits.Throttle;
import io.ferry.store.s3.S3Clients;
import io.ferry.support.Buckets;
import io.ferry.support.FaultProxy;
import io.ferry.support.FaultProxy.Fault;
import io.ferry.support.FaultProxy.Kind;
import io.ferry.support.Jobs;
import io.ferry.support.LocalSpark;
import io.ferry.support.S3Backend;
import io.ferry.support.SlowDownAbove;
import io.ferry.support.Trees;
import io.ferry.store.checksums.Checksum;
import org.apache.spark.sql.functions;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.ChecksumType;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fault suite on real parts: two S3 providers (S3Proxy, each in its own JVM) with a fault-injecting HTTP proxy in
 * front of each, a real local Spark. Every case asserts the end state: every object byte-identical at the
 * destination (or a clear per-object failure with the previous version intact), no multipart upload left open.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FaultsIT {
  private static final long MIB = 1L << 20;
  private static final AtomicInteger BUCKETS = new AtomicInteger();
  @TempDir static Path work;
  private S3Backend providerA;
  private S3Backend providerB;
  private FaultProxy toA;
  private FaultProxy toB;
  private SparkSession spark;
  private Map<String, String> source;

  @BeforeAll
  void start() throws Exception {
    providerA = S3Backend.start(work.resolve("a"));
    providerB = S3Backend.start(work.resolve("b"));
    toA = FaultProxy.before(providerA.endpoint());
    toB = FaultProxy.before(providerB.endpoint());
    spark = LocalSpark.start("FaultsIT");
    // one object in three 5 MiB parts, three whole ones (one empty): every request kind of a copy
    source = new TreeMap<>(SeedData.upload(providerA.client(), "src", List.of(new SeedData.Spec("split.bin", 12 * MIB + 5, 1),
        new SeedData.Spec("a.txt", 10_000, 2), new SeedData.Spec("dir/b.bin", 300_000, 3), new SeedData.Spec("empty", 0, 4))));
    // objects whose source keeps a checksum (S3 stores one for every object it is given one with, CRC64NVME by default)
    checksummed = new TreeMap<>();
    checksummed.put("sums/whole-crc64nvme.bin", putWithChecksum("sums/whole-crc64nvme.bin", bytes(200_000, 7),
        Checksum.Algorithm.CRC64NVME));
    checksummed.put("sums/split-crc32c.bin", putInPartsWithFullObjectCrc32c("sums/split-crc32c.bin", bytes((int) (11 * MIB + 3), 8)));
  }

  private Map<String, String> checksummed;

  private static byte[] bytes(int length, long seed) {
    byte[] b = new byte[length];
    new java.util.SplittableRandom(seed).nextBytes(b);
    return b;
  }

  private static String value(Checksum.Algorithm algorithm, byte[] bytes, int from, int to) {
    Checksum.Digest d = Checksum.digest(algorithm);
    d.update(bytes, from, to - from);
    return d.value();
  }

  /** A PutObject carrying its checksum, which the server checks and keeps; returns the bytes' SHA-256. */
  private String putWithChecksum(String key, byte[] bytes, Checksum.Algorithm algorithm) {
    String v = value(algorithm, bytes, 0, bytes.length);
    providerA.client().putObject(b -> {
      b.bucket("src").key(key);
      if (algorithm == Checksum.Algorithm.CRC64NVME) b.checksumCRC64NVME(v); else b.checksumCRC32C(v);
    }, RequestBody.fromBytes(bytes));
    return java.util.HexFormat.of().formatHex(SeedData.sha256().digest(bytes));
  }

  /** A multipart object of two parts with a full-object CRC32C, as S3 keeps for uploads that ask for one. */
  private String putInPartsWithFullObjectCrc32c(String key, byte[] bytes) {
    S3Client a = providerA.client();
    int half = (int) (6 * MIB);
    String upload = a.createMultipartUpload(b -> b.bucket("src").key(key).checksumAlgorithm(ChecksumAlgorithm.CRC32_C)
        .checksumType(ChecksumType.FULL_OBJECT)).uploadId();
    String p1 = value(Checksum.Algorithm.CRC32C, bytes, 0, half);
    String p2 = value(Checksum.Algorithm.CRC32C, bytes, half, bytes.length);
    String e1 = a.uploadPart(b -> b.bucket("src").key(key).uploadId(upload).partNumber(1).checksumCRC32C(p1),
        RequestBody.fromBytes(java.util.Arrays.copyOfRange(bytes, 0, half))).eTag();
    String e2 = a.uploadPart(b -> b.bucket("src").key(key).uploadId(upload).partNumber(2).checksumCRC32C(p2),
        RequestBody.fromBytes(java.util.Arrays.copyOfRange(bytes, half, bytes.length))).eTag();
    a.completeMultipartUpload(b -> b.bucket("src").key(key).uploadId(upload)
        .checksumCRC32C(value(Checksum.Algorithm.CRC32C, bytes, 0, bytes.length)).checksumType(ChecksumType.FULL_OBJECT)
        .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(e1).checksumCRC32C(p1).build(),
            CompletedPart.builder().partNumber(2).eTag(e2).checksumCRC32C(p2).build())));
    String stored = a.headObject(b -> b.bucket("src").key(key).checksumMode(ChecksumMode.ENABLED)).checksumCRC32C();
    assertThat(stored).as("the test server keeps the full-object checksum").isEqualTo(value(Checksum.Algorithm.CRC32C, bytes, 0,
        bytes.length));
    return java.util.HexFormat.of().formatHex(SeedData.sha256().digest(bytes));
  }

  @AfterAll
  void stop() throws Exception {
    if (spark != null) spark.stop();
    for (AutoCloseable c : new AutoCloseable[] {toA, toB, providerA, providerB}) if (c != null) c.close();
  }

  @AfterEach
  void passEverything() {
    toA.clear();
    toB.clear();
  }

  /** A fresh destination bucket at provider B. */
  private String bucket() {
    String bucket = "dst-" + BUCKETS.incrementAndGet();
    providerB.client().createBucket(b -> b.bucket(bucket));
    return bucket;
  }

  private String job(String bucket, String extra) {
    return Jobs.hocon(toA.endpoint(), providerA.identity(), "src", work.resolve("unused"), work.resolve("reports"), """
        ferry.plan.part-size = 5MiB
        ferry.copy { retries = 4, backoff = 10ms, max-backoff = 50ms }
        ferry.destination {
          type = s3
          endpoint = "%s"
          bucket = %s
          credentials { access-key-id = "%s", secret-access-key = "%s" }
        }
        %s
        """.formatted(toB.endpoint(), bucket, providerB.identity(), providerB.secret(), extra));
  }

  private record Run(RunSummary summary, String out) {}

  private Run migrate(String hocon) throws Exception {
    var config = ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString(hocon),
        Map.of("ferry.source.credentials.secret-access-key", providerA.secret()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunSummary summary = MigrationJob.run(config, JavaSparkContext.fromSparkContext(spark.sparkContext()),
        new PrintStream(out, true, StandardCharsets.UTF_8));
    return new Run(summary, out.toString(StandardCharsets.UTF_8));
  }

  static Stream<Arguments> bursts() {
    return Stream.of(
        Arguments.of("source", Kind.LIST_OBJECTS, Fault.slowDown()),
        Arguments.of("source", Kind.HEAD_OBJECT, Fault.slowDown()),
        Arguments.of("source", Kind.GET_OBJECT, Fault.internalError()),
        Arguments.of("source", Kind.GET_OBJECT, Fault.slowDown()),
        Arguments.of("destination", Kind.HEAD_BUCKET, Fault.slowDown()),
        Arguments.of("destination", Kind.LIST_OBJECTS, Fault.internalError()),
        Arguments.of("destination", Kind.CREATE_UPLOAD, Fault.slowDown()),
        Arguments.of("destination", Kind.CREATE_UPLOAD, Fault.internalError()),
        Arguments.of("destination", Kind.UPLOAD_PART, Fault.slowDown()),
        Arguments.of("destination", Kind.PUT_OBJECT, Fault.internalError()),
        Arguments.of("destination", Kind.COMPLETE_UPLOAD, Fault.slowDown()),
        Arguments.of("destination", Kind.COMPLETE_UPLOAD, Fault.internalError()),
        Arguments.of("destination", Kind.COMPLETE_UPLOAD, new Fault.LoseResponse()),
        Arguments.of("destination", Kind.COMPLETE_UPLOAD, new Fault.OkWithError("InternalError")),
        Arguments.of("destination", Kind.CREATE_UPLOAD, new Fault.ResetBeforeForward()),
        // the service opened the upload and its answer was lost: the retried opening's twin is aborted, none left open
        Arguments.of("destination", Kind.CREATE_UPLOAD, new Fault.LoseResponse()));
  }

  @ParameterizedTest(name = "{2} twice on {1} at the {0}")
  @MethodSource("bursts")
  void aBurstOfFailuresOnAnyRequestKindIsRetriedAndEveryObjectArrivesWhole(String side, Kind kind, Fault fault) throws Exception {
    String bucket = bucket();
    FaultProxy proxy = side.equals("source") ? toA : toB;
    proxy.inject(kind, fault, 2);
    int before = proxy.injected(fault.getClass());
    Run run = migrate(job(bucket, ""));
    assertThat(proxy.injected(fault.getClass()) - before).as("the faults were met").isEqualTo(2);
    assertThat(run.summary().succeeded()).as(run.out()).isTrue();
    assertThat(Buckets.digests(providerB.client(), bucket, "")).isEqualTo(all());
    assertThat(Buckets.openUploads(providerB.client(), bucket)).isZero();
    // a range's own requests: the ranges dataset counts the answers asking to slow down, and no others
    if (kind == Kind.GET_OBJECT || kind == Kind.UPLOAD_PART) {
      long slowed = spark.read().parquet(run.summary().reportPath() + "/ranges.parquet").agg(functions.sum("throttled")).first().getLong(0);
      assertThat(slowed).isEqualTo(fault.equals(Fault.slowDown()) ? 2 : 0);
    }
  }

  @Test
  void anAbortThatMeetsFailuresIsRetriedAndNoUploadStaysOpen() throws Exception {
    String bucket = bucket();
    toB.injectAlways(Kind.UPLOAD_PART, new Fault.ResetAfterRequestBytes(MIB)); // no part gets through: the object is aborted
    toB.inject(Kind.ABORT_UPLOAD, Fault.slowDown(), 2);
    int before = toB.injected(Fault.Status.class);
    Run run = migrate(job(bucket, ""));
    assertThat(toB.injected(Fault.Status.class) - before).as("both answers to the abort were met").isEqualTo(2);
    assertThat(run.summary().succeeded()).isFalse();
    assertThat(run.summary().failures()).extracting(RunSummary.Failure::key).containsExactlyInAnyOrder("split.bin",
        "sums/split-crc32c.bin");
    assertThat(Buckets.openUploads(providerB.client(), bucket)).isZero();
    Map<String, String> landed = Buckets.digests(providerB.client(), bucket, "");
    assertThat(landed).doesNotContainKey("split.bin").doesNotContainKey("sums/split-crc32c.bin").hasSize(4);
    landed.forEach((key, digest) -> assertThat(digest).as(key).isEqualTo(all().get(key)));
  }

  static Stream<Arguments> flips() {
    return Stream.of(
        Arguments.of("files", "sums/whole-crc64nvme.bin", "source-crc64nvme"),
        Arguments.of("bucket", "sums/whole-crc64nvme.bin", "source-crc64nvme"),
        Arguments.of("files", "a.txt", "source-md5-etag"),
        Arguments.of("bucket", "a.txt", "source-md5-etag"),
        Arguments.of("files", "sums/split-crc32c.bin", "source-crc32c"),
        Arguments.of("bucket", "sums/split-crc32c.bin", "source-crc32c"),
        Arguments.of("files", "split.bin", "source-md5-etag"));
  }

  /**
   * One byte of one GET's body arrives inverted. An object the source can vouch for (a stored checksum, an MD5 ETag)
   * is never committed with it: an object copied whole fails its check at its last byte and is read again; one copied
   * in parts fails its check at the commit and is copied again.
   */
  @ParameterizedTest(name = "a byte flipped in {1} to {0}: checked by {2}")
  @MethodSource("flips")
  void aFlippedByteIsCaughtAndTheObjectCopiedAgainBeforeItsCommit(String to, String key, String verifiedBy) throws Exception {
    Path directory = work.resolve("flips-" + BUCKETS.incrementAndGet());
    String bucket = to.equals("bucket") ? bucket() : null;
    String hocon = bucket != null ? job(bucket, "")
        : Jobs.hocon(toA.endpoint(), providerA.identity(), "src", directory, work.resolve("reports"),
            "ferry.plan.part-size = 5MiB\nferry.copy { retries = 4, backoff = 10ms, max-backoff = 50ms }");
    int before = toA.injected(Fault.FlipResponseByte.class);
    toA.inject(Kind.GET_OBJECT, "/" + key, new Fault.FlipResponseByte(4321), 1);
    Run run = migrate(hocon);
    assertThat(toA.injected(Fault.FlipResponseByte.class) - before).as("the byte was flipped").isEqualTo(1);
    assertThat(run.summary().succeeded()).as(run.out()).isTrue();
    Map<String, String> expected = new TreeMap<>(source);
    expected.putAll(checksummed);
    Map<String, String> copied = bucket != null ? Buckets.digests(providerB.client(), bucket, "") : Trees.digests(directory);
    assertThat(copied).isEqualTo(expected);
    if (bucket != null) assertThat(Buckets.openUploads(providerB.client(), bucket)).isZero();
    var objects = spark.read().option("header", true).option("escape", "\"").csv(run.summary().reportPath() + "/objects.csv");
    assertThat(objects.filter(functions.col("key").equalTo(key)).select("verified").first().getString(0)).isEqualTo(verifiedBy);
  }

  /**
   * The destination filesystem fills up mid-run (a tmpfs of 6 MiB): the objects that do not fit fail with the
   * filesystem's message, those that fit are copied, nothing half-written is left at a final name or as a temp file.
   */
  @Test
  void aFullDestinationFilesystemFailsTheObjectsThatDoNotFitAndLeavesNothingHalfWritten() throws Exception {
    Path mount = Files.createDirectories(work.resolve("small-disk"));
    Process mounting = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs",
        mount.toString()).redirectErrorStream(true).start();
    String why = new String(mounting.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    org.junit.jupiter.api.Assumptions.assumeTrue(mounting.waitFor() == 0, "a small tmpfs needs mount(8) as root; not here: " + why);
    try {
      Files.writeString(mount.resolve("split.bin"), "the previous version");
      Run run = migrate(Jobs.hocon(toA.endpoint(), providerA.identity(), "src", mount, work.resolve("reports"),
          "ferry.plan.part-size = 5MiB\nferry.copy { retries = 1, backoff = 10ms }"));
      assertThat(run.summary().succeeded()).isFalse();
      assertThat(run.summary().failures()).as("what fits depends on the order the writes meet the full disk").isNotEmpty()
          .allSatisfy(f -> assertThat(f.error()).contains("No space left on device"));
      Map<String, String> landed = Trees.digests(mount);
      String previous =
          java.util.HexFormat.of().formatHex(SeedData.sha256().digest("the previous version".getBytes(StandardCharsets.UTF_8)));
      landed.forEach((key, digest) -> assertThat(digest).as(key).isIn(all().get(key), key.equals("split.bin") ? previous : ""));
      for (RunSummary.Failure f : run.summary().failures()) {
        assertThat(landed.get(f.key())).as("a failed object is not at its final name, or is its previous version")
            .isIn(null, f.key().equals("split.bin") ? previous : "");
      }
      assertThat(Trees.tempFiles(mount)).isEmpty();
    } finally {
      new ProcessBuilder("umount", mount.toString()).start().waitFor();
    }
  }

  /**
   * The destination's credentials are revoked mid-run (every request answered 403 InvalidAccessKeyId once the first
   * parts went through): the objects fail with that message, none is half-visible, and the uploads that could not be
   * aborted stay in the ledger until a cleanup with working credentials removes them.
   */
  @Test
  void credentialsRevokedMidRunFailTheObjectsCleanlyAndCleanupRemovesTheUploadsLeft() throws Exception {
    String bucket = bucket();
    providerB.client().putObject(b -> b.bucket(bucket).key("split.bin"), RequestBody.fromString("the previous version"));
    // every upload is opened before the first part goes, so the revocation meets parts, not openings (one that meets
    // an opening stops the run, naming the 403)
    String hocon = job(bucket, "ferry.job.name = revoked\nferry.copy.streams-per-task = 1");
    int parts = toB.seen(Kind.UPLOAD_PART);
    Thread revoke = new Thread(() -> {
      while (toB.seen(Kind.UPLOAD_PART) < parts + 2) Thread.onSpinWait();
      toB.injectAll(new Fault.Status(403, "InvalidAccessKeyId"));
    });
    revoke.start();
    Run run = migrate(hocon);
    revoke.join();
    toB.clear(); // the credentials work again
    assertThat(run.summary().succeeded()).isFalse();
    assertThat(run.summary().failures()).isNotEmpty()
        .allSatisfy(f -> assertThat(f.error()).contains("InvalidAccessKeyId (403): the access key id is not known to this service"));
    assertThat(Buckets.sha256(providerB.client(), bucket, "split.bin")).as("the previous version is intact")
        .isEqualTo(java.util.HexFormat.of().formatHex(SeedData.sha256().digest("the previous version".getBytes(StandardCharsets.UTF_8))));
    Map<String, String> landed = Buckets.digests(providerB.client(), bucket, "");
    landed.forEach((key, digest) -> {
      if (!key.equals("split.bin")) assertThat(digest).as(key).isEqualTo(all().get(key));
    });
    Path conf = Jobs.file(work.resolve("conf"), "revoked.conf", hocon);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = Ferry.run(new String[] {"cleanup", conf.toString(), "-Dferry.source.credentials.secret-access-key=" + providerA.secret()},
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(out, true, StandardCharsets.UTF_8));
    assertThat(code).as(out.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(Buckets.openUploads(providerB.client(), bucket)).isZero();
  }

  @Test
  void throttlingSlowsTheWholeJvmToThatEndpoint() throws Exception {
    String bucket = bucket();
    Throttle throttle = S3Clients.throttle(providerB.endpointConfig(toB.endpoint()));
    long decreasesBefore = throttle.decreases();
    toB.inject(Kind.UPLOAD_PART, Fault.slowDown(), 3);
    Run run = migrate(job(bucket, ""));
    assertThat(run.summary().succeeded()).as(run.out()).isTrue();
    assertThat(throttle.decreases()).as("503 SlowDown halved the JVM's requests to the endpoint").isGreaterThan(decreasesBefore);
    assertThat(throttle.lowest()).isLessThan(32); // two task slots x 16 streams; ThrottleTest shows the way back up
    assertThat(Buckets.digests(providerB.client(), bucket, "")).isEqualTo(all());
  }

  /**
   * Issue 47: one key prefix of the source answers 503 SlowDown above 40 requests a second (S3's rule per partitioned
   * prefix, scaled down). With limits.prefix-rates the job holds that prefix to one rate: every object lands by
   * content, with fewer slow-down answers than where only the JVM's in-flight limit reacts (one request in flight
   * still overruns a prefix on loopback), and the other prefix is never held.
   */
  @Test
  void aPrefixThatAsksToSlowDownIsHeldToOneRateForTheJob() throws Exception {
    String bucket = "prefixes";
    providerA.client().createBucket(b -> b.bucket(bucket));
    List<SeedData.Spec> specs = new java.util.ArrayList<>();
    for (int i = 0; i < 150; i++) {
      specs.add(new SeedData.Spec("hot/" + i + ".bin", 1_000 + i, i));
      specs.add(new SeedData.Spec("cool/" + i + ".bin", 1_000 + i, 1_000 + i));
    }
    Map<String, String> seeded = new TreeMap<>(SeedData.upload(providerA.client(), bucket, specs));
    long[] slowed = new long[2];
    for (boolean prefixRates : new boolean[] {true, false}) {
      SlowDownAbove rule = new SlowDownAbove("/" + bucket + "/hot/", 40);
      toA.decide(rule);
      Path into = work.resolve("prefix-rates-" + prefixRates);
      Run run = migrate(Jobs.hocon(toA.endpoint(), providerA.identity(), bucket, into, work.resolve("reports"),
          "ferry.job.name = prefix-" + prefixRates + ", ferry.limits.prefix-rates = " + prefixRates
          + ", ferry.copy { retries = 10, backoff = 20ms, max-backoff = 400ms }"));
      toA.decide(null);
      slowed[prefixRates ? 0 : 1] = rule.slowed();
      if (prefixRates) {
        assertThat(run.summary().objects().failed()).as(run.out()).isZero();
        assertThat(Trees.digests(into)).isEqualTo(seeded);
      }
    }
    System.out.printf("FaultsIT prefix rates: %d slow-down answers with a rate per prefix, %d without%n", slowed[0], slowed[1]);
    assertThat(slowed[0]).as("slow-down answers with a rate per prefix (%d) against without (%d)", slowed[0], slowed[1])
        .isLessThan(slowed[1]);
  }

  private Map<String, String> all() {
    Map<String, String> all = new TreeMap<>(source);
    all.putAll(checksummed);
    return all;
  }
}
