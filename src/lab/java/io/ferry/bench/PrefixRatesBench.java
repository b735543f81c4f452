package io.ferry.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.config.S3EndpointConfig;
import io.ferry.support.FaultProxy;
import io.ferry.support.S3ProxyProcess;
import io.ferry.support.SeedData;
import io.ferry.support.SlowDownAbove;
import io.ferry.support.StandaloneCluster;
import io.ferry.support.TestS3;
import io.ferry.support.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A job-wide rate per key prefix against each executor halving only its own requests (issue 47): one bucket → directory
 * job on a standalone cluster of four one-core workers, the source behind the fault proxy, which answers 503 SlowDown
 * to the requests of prefix {@code hot/} beyond FERRY_PREFIX_RATE a second (S3's rule per partitioned prefix, scaled
 * down); {@code cool/} has no rule. Alternating {@code limits.prefix-rates} true and false; each run's slow-down
 * answers, requests let through, copy stage, objects copied and failed, every copy checked by SHA-256. Results:
 * bench/results/prefix-rates.csv.
 *
 * <p>Environment: FERRY_PREFIX_RATE (100 a second), FERRY_PREFIX_OBJECTS (600 per prefix, 4 KiB each),
 * FERRY_PREFIX_WORKERS (4), FERRY_PREFIX_REPEAT (2).
 */
public final class PrefixRatesBench {
  private PrefixRatesBench() {}

  public static void main(String[] args) throws Exception {
    Path home = Path.of(args[0]).toAbsolutePath();
    int rate = Integer.parseInt(System.getenv().getOrDefault("FERRY_PREFIX_RATE", "100"));
    int objects = Integer.parseInt(System.getenv().getOrDefault("FERRY_PREFIX_OBJECTS", "600"));
    int workers = Integer.parseInt(System.getenv().getOrDefault("FERRY_PREFIX_WORKERS", "4"));
    int repeat = Integer.parseInt(System.getenv().getOrDefault("FERRY_PREFIX_REPEAT", "2"));
    Path work = home.resolve("target/bench-prefix-rates");
    Files.createDirectories(work);
    String secret = "bench-secret";
    Path csv = home.resolve("bench/results/prefix-rates.csv");
    if (!Files.exists(csv)) {
      Files.writeString(csv, "when,workers,prefix_rates,rule_per_s,objects,slowdowns,forwarded_hot,copy_s,wall_s,copied,failed,"
          + "objects_per_s,verified\n");
    }
    try (S3ProxyProcess s3 = S3ProxyProcess.start(work.resolve("data"), "bench", secret);
        FaultProxy proxy = FaultProxy.before(s3.endpoint());
        StandaloneCluster cluster = StandaloneCluster.start(work.resolve("cluster"), workers, "1g")) {
      var client = TestS3.client(S3EndpointConfig.withKeys(s3.endpoint(), "us-east-1", "bench", secret));
      if (client.listBuckets().buckets().stream().noneMatch(b -> b.name().equals("prefixes"))) {
        client.createBucket(b -> b.bucket("prefixes"));
      }
      List<SeedData.Spec> specs = new ArrayList<>();
      for (int i = 0; i < objects; i++) {
        specs.add(new SeedData.Spec("hot/" + i + ".bin", 4096, i));
        specs.add(new SeedData.Spec("cool/" + i + ".bin", 4096, 100_000 + i));
      }
      Map<String, String> expected = new TreeMap<>(SeedData.upload(client, "prefixes", specs));
      for (int r = 0; r < repeat; r++) {
        for (boolean prefixRates : new boolean[] {true, false}) {
          String name = "prefix-" + prefixRates;
          Path destination = work.resolve("out-" + name);
          clear(destination);
          Path reports = work.resolve("reports");
          Path job = Files.writeString(work.resolve(name + ".conf"), """
              ferry {
                job.name = %s
                source { endpoint = "%s", bucket = prefixes
                  credentials { access-key-id = bench, secret-access-key = ${?SRC_SECRET_ACCESS_KEY} } }
                destination.path = "%s"
                report.path = "%s"
                limits.prefix-rates = %s
                copy { retries = 6, backoff = 50ms, max-backoff = 1s }
              }
              """.formatted(name, proxy.endpoint(), destination, reports, prefixRates));
          SlowDownAbove rule = new SlowDownAbove("/prefixes/hot/", rate);
          proxy.decide(rule);
          long started = System.nanoTime();
          int code = cluster.submit(List.of("--class", "io.ferry.Ferry", "--conf", "spark.cores.max=" + workers,
              "--conf", "spark.executor.memory=512m", "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
              "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.ui.enabled=false",
              home.resolve("target/ferry.jar").toString(), "migrate", job.toString()), Map.of("SRC_SECRET_ACCESS_KEY", secret), 900);
          double wall = (System.nanoTime() - started) / 1e9;
          proxy.decide(null);
          if (code != 0 && code != 1) throw new IllegalStateException("cluster run failed: " + cluster.log("submit"));
          JsonNode summary = new ObjectMapper().readTree(newest(reports.resolve(name)).resolve("summary.json").toFile());
          double seconds = summary.at("/throughput/copyStageSeconds").asDouble();
          long copied = summary.at("/objects/copied").asLong();
          long failed = summary.at("/objects/failed").asLong();
          boolean verified = Trees.digests(destination).equals(expected);
          String row = String.format(Locale.ROOT, "%s,%d,%s,%d,%d,%d,%d,%.2f,%.1f,%d,%d,%.1f,%s%n", Instant.now(), workers, prefixRates,
              rate, 2 * objects, rule.slowed(), rule.forwarded(), seconds, wall, copied, failed, copied / seconds, verified ? "yes" : "NO");
          System.out.print(row);
          Files.writeString(csv, row, StandardOpenOption.APPEND);
        }
      }
    }
  }

  private static void clear(Path dir) throws Exception {
    if (!Files.exists(dir)) return;
    try (Stream<Path> old = Files.walk(dir)) {
      for (Path p : old.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
    }
  }

  private static Path newest(Path job) throws Exception {
    try (Stream<Path> runs = Files.list(job)) {
      return runs.filter(p -> Files.exists(p.resolve("summary.json"))).max(Comparator.comparing(p ->
          p.toFile().lastModified())).orElseThrow();
    }
  }
}
