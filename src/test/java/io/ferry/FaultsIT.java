package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.ConfigLoader;
import io.ferry.demo.SeedData;
import io.ferry.report.RunSummary;
import io.ferry.spark.MigrationJob;
import io.ferry.store.Throttle;
import io.ferry.store.s3.S3Clients;
import io.ferry.support.Buckets;
import io.ferry.support.FaultProxy;
import io.ferry.support.FaultProxy.Fault;
import io.ferry.support.FaultProxy.Kind;
import io.ferry.support.Jobs;
import io.ferry.support.LocalSpark;
import io.ferry.support.S3Backend;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
        Arguments.of("destination", Kind.CREATE_UPLOAD, new Fault.ResetBeforeForward()));
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
    assertThat(Buckets.digests(providerB.client(), bucket, "")).isEqualTo(source);
    assertThat(Buckets.openUploads(providerB.client(), bucket)).isZero();
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
    assertThat(run.summary().failures()).singleElement().satisfies(f -> assertThat(f.key()).isEqualTo("split.bin"));
    assertThat(Buckets.openUploads(providerB.client(), bucket)).isZero();
    Map<String, String> landed = Buckets.digests(providerB.client(), bucket, "");
    assertThat(landed).doesNotContainKey("split.bin").hasSize(3);
    landed.forEach((key, digest) -> assertThat(digest).as(key).isEqualTo(source.get(key)));
  }

  @Test
  void throttlingSlowsTheWholeJvmToThatEndpoint() throws Exception {
    String bucket = bucket();
    Throttle throttle = S3Clients.throttle(new io.ferry.config.S3EndpointConfig(toB.endpoint(), "us-east-1", true,
        io.ferry.config.S3EndpointConfig.CredentialsType.STATIC, "", new io.ferry.config.Secret(""), new io.ferry.config.Secret(""), "",
        io.ferry.config.S3EndpointConfig.ChecksumMode.WHEN_REQUIRED, false));
    long decreasesBefore = throttle.decreases();
    toB.inject(Kind.UPLOAD_PART, Fault.slowDown(), 3);
    Run run = migrate(job(bucket, ""));
    assertThat(run.summary().succeeded()).as(run.out()).isTrue();
    assertThat(throttle.decreases()).as("503 SlowDown halved the JVM's requests to the endpoint").isGreaterThan(decreasesBefore);
    assertThat(throttle.lowest()).isLessThan(32); // two task slots x 16 streams; ThrottleTest shows the way back up
    assertThat(Buckets.digests(providerB.client(), bucket, "")).isEqualTo(source);
  }
}
