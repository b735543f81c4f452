package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.support.SeedData;
import io.ferry.support.Buckets;
import io.ferry.support.Jobs;
import io.ferry.support.LocalSpark;
import io.ferry.support.S3Backend;
import io.ferry.support.StandaloneCluster;
import io.ferry.support.Trees;
import io.ferry.support.WanEmulator;
import io.ferry.ledger.Ledger;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end as users deploy it: the shaded jar submitted with the real {@code SparkSubmit} to a real standalone
 * master with two workers (separate JVMs) on loopback. Proves the ranges run in executors, that one object's ranges
 * (file writes, or multipart parts) spread over both, and that the copies are byte-identical.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StandaloneClusterIT {
  private static final long MIB = 1L << 20;
  private static final String BIG = "video/raw footage 2018.bin";
  @TempDir static Path work;
  private S3Backend providerA;
  private S3Backend providerB;
  private StandaloneCluster cluster;
  private Map<String, String> source;

  @BeforeAll
  void start() throws Exception {
    providerA = S3Backend.start(work.resolve("a"));
    providerB = S3Backend.start(work.resolve("b"));
    cluster = StandaloneCluster.start(Path.of("target/cluster-it").toAbsolutePath(), 2, "1g");
    source = new TreeMap<>(SeedData.upload(providerA.client(), "cluster-source", SeedData.mix(64 * MIB + 5, 40)));
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) cluster.close();
    if (providerA != null) providerA.close();
    if (providerB != null) providerB.close();
  }

  private Path conf(String name, String hocon) throws Exception {
    return Jobs.file(work, name + ".conf", hocon + """
        ferry.source.credentials.secret-access-key = ${?SRC_SECRET_ACCESS_KEY}
        ferry.destination.credentials.secret-access-key = ${?DST_SECRET_ACCESS_KEY}
        ferry.copy.streams-per-task = 2
        ferry.job.name = %s
        """.formatted(name));
  }

  private List<String> submission(Path conf) {
    Path appJar = Path.of(System.getProperty("ferry.app.jar", "target/ferry.jar")).toAbsolutePath();
    return List.of(
        "--class", "io.ferry.Ferry",
        "--conf", "spark.cores.max=2",
        "--conf", "spark.executor.memory=512m",
        "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
        "--conf", "spark.scheduler.maxRegisteredResourcesWaitingTime=120s",
        "--conf", "spark.driver.host=127.0.0.1",
        "--conf", "spark.ui.enabled=false",
        appJar.toString(), "migrate", conf.toString());
  }

  private Map<String, String> secrets() {
    return Map.of("SRC_SECRET_ACCESS_KEY", providerA.secret(), "DST_SECRET_ACCESS_KEY", providerB.secret());
  }

  /** Submits a job whose secrets come from the environment (never the command line, which the Spark UI shows). */
  private Path submit(String name, String hocon) throws Exception {
    int code = cluster.submit(submission(conf(name, hocon)), secrets(), 300);
    String log = cluster.log("submit");
    assertThat(code).as(log).isZero();
    assertThat(log).contains("objects      " + source.size() + " copied").doesNotContain(providerA.secret())
        .doesNotContain(providerB.secret());
    try (var runs = Files.list(work.resolve("reports").resolve(name))) {
      return runs.filter(r -> Files.exists(r.resolve("summary.json"))).findFirst().orElseThrow(); // the job folder also holds its ledger
    }
  }

  /** Executor id → ranges of the big object it copied, read back from the run's dataset. */
  private Map<String, Long> bigObjectRangesByExecutor(Path run, List<String> executorsSeen) {
    SparkSession spark = LocalSpark.start("StandaloneClusterIT-read");
    try {
      Dataset<Row> ranges = spark.read().parquet(run.resolve("ranges.parquet").toString());
      ranges.select("executor").distinct().collectAsList().forEach(r -> executorsSeen.add(r.getString(0)));
      return ranges.filter("key = '" + BIG + "'").groupBy("executor").count().collectAsList().stream()
          .collect(Collectors.toMap(r -> r.getString(0), r -> r.getLong(1)));
    } finally {
      spark.stop();
    }
  }

  @Test
  void rangesOfOneObjectAreWrittenToAFileByBothExecutors() throws Exception {
    Path destination = work.resolve("out");
    Path run = submit("files", Jobs.hocon(providerA.endpoint(), providerA.identity(), "cluster-source", destination,
        work.resolve("reports"), ""));
    assertThat(Trees.digests(destination)).isEqualTo(source);
    assertThat(Trees.tempFiles(destination)).isEmpty();
    List<String> executors = new java.util.ArrayList<>();
    Map<String, Long> big = bigObjectRangesByExecutor(run, executors);
    assertThat(executors).as("ranges ran in the two executors, not the driver").containsExactlyInAnyOrder("0", "1");
    assertThat(big.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(9);
    assertThat(big).as("the ranges of one object were written by both executors").hasSize(2);
  }

  /**
   * An executor JVM killed with SIGKILL while the ranges go through a slow link: Spark runs its tasks again (on the
   * other executor, or one the worker starts anew) and the copy is byte-identical, with no temp file left.
   */
  @Test
  void anExecutorKilledMidCopyHasItsTasksRunAgainAndTheCopyIsByteIdentical() throws Exception {
    Path destination = work.resolve("out-killed");
    try (WanEmulator slow = new WanEmulator(0, Integer.parseInt(providerA.endpoint().replaceAll(".*:", "")), 3, 0)) {
      Path conf = conf("killed", Jobs.hocon("http://127.0.0.1:" + slow.port(), providerA.identity(), "cluster-source", destination,
          work.resolve("reports"), ""));
      Process submit = cluster.submitAsync(submission(conf), secrets());
      Configuration hadoop = new Configuration();
      Ledger ledger = new Ledger(Ledger.directory(work.resolve("reports").toString(), "killed", hadoop), hadoop);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (ledger.read().copied().values().stream().mapToInt(Map::size).sum() < 1) {
        assertThat(submit.isAlive()).as(cluster.log("submit")).isTrue();
        assertThat(System.nanoTime()).as("a part landed").isLessThan(deadline);
        Thread.sleep(200);
      }
      List<ProcessHandle> executors = cluster.executors();
      assertThat(executors).as("the application's executors").hasSize(2);
      executors.get(0).destroyForcibly();
      assertThat(submit.waitFor(5, TimeUnit.MINUTES)).isTrue();
      String log = cluster.log("submit");
      assertThat(submit.exitValue()).as(log).isZero();
      assertThat(log).as("Spark saw the executor go and ran its tasks again").containsPattern("Lost executor \\d|ExecutorLostFailure");
    }
    assertThat(Trees.digests(destination)).isEqualTo(source);
    assertThat(Trees.tempFiles(destination)).isEmpty();
  }

  @Test
  void partsOfOneObjectAreUploadedToAnotherProviderByBothExecutors() throws Exception {
    providerB.client().createBucket(b -> b.bucket("cluster-copy"));
    Path run = submit("buckets", Jobs.hocon(providerA.endpoint(), providerA.identity(), "cluster-source", work.resolve("unused"),
        work.resolve("reports"), """
            ferry.destination {
              type = s3
              endpoint = "%s"
              bucket = cluster-copy
              credentials.access-key-id = "%s"
            }
            """.formatted(providerB.endpoint(), providerB.identity())));
    assertThat(Buckets.digests(providerB.client(), "cluster-copy", "")).isEqualTo(source);
    assertThat(Buckets.openUploads(providerB.client(), "cluster-copy")).isZero();
    List<String> executors = new java.util.ArrayList<>();
    Map<String, Long> big = bigObjectRangesByExecutor(run, executors);
    assertThat(executors).containsExactlyInAnyOrder("0", "1");
    assertThat(big.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(9);
    assertThat(big).as("the parts of one multipart upload were uploaded by both executors").hasSize(2);
  }
}
