package io.ferry.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.Ferry;
import io.ferry.config.S3EndpointConfig;
import io.ferry.support.S3ProxyProcess;
import io.ferry.support.SeedData;
import io.ferry.support.StandaloneCluster;
import io.ferry.support.TestS3;
import io.ferry.support.Trees;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
 * How close a capped job stays to its cap ({@code limits.bandwidth}): the same bucket → directory job on Spark local
 * mode (one executor: the whole cap) and on a standalone cluster of two one-core workers (each executor half of it),
 * its rate over the copy stage from the run's summary, every copy checked by SHA-256. Results:
 * bench/results/limits.csv.
 *
 * <p>Environment: FERRY_LIMITS_CAP_MIB (24, MiB per second), FERRY_LIMITS_OBJECTS (8, of 32 MiB), FERRY_LIMITS_REPEAT (3).
 */
public final class LimitsBench {
  private LimitsBench() {}

  public static void main(String[] args) throws Exception {
    Path home = Path.of(args[0]).toAbsolutePath();
    long capMib = Long.parseLong(System.getenv().getOrDefault("FERRY_LIMITS_CAP_MIB", "24"));
    int objects = Integer.parseInt(System.getenv().getOrDefault("FERRY_LIMITS_OBJECTS", "8"));
    int repeat = Integer.parseInt(System.getenv().getOrDefault("FERRY_LIMITS_REPEAT", "3"));
    Path work = home.resolve("target/bench-limits");
    Files.createDirectories(work);
    String secret = "bench-secret";
    Path csv = home.resolve("bench/results/limits.csv");
    if (!Files.exists(csv)) Files.writeString(csv, "when,mode,cap_mb_s,bytes,copy_s,rate_mb_s,rate_over_cap,verified\n");
    try (S3ProxyProcess s3 = S3ProxyProcess.start(work.resolve("data"), "bench", secret)) {
      var client = TestS3.client(S3EndpointConfig.withKeys(s3.endpoint(), "us-east-1", "bench", secret));
      if (client.listBuckets().buckets().stream().noneMatch(b -> b.name().equals("limits"))) client.createBucket(b -> b.bucket("limits"));
      List<SeedData.Spec> specs = new ArrayList<>();
      for (int i = 0; i < objects; i++) specs.add(new SeedData.Spec("big-" + i + ".bin", 32L << 20, 100 + i));
      Map<String, String> expected = new TreeMap<>(SeedData.upload(client, "limits", specs));
      long bytes = specs.stream().mapToLong(SeedData.Spec::size).sum();
      for (int r = 0; r < repeat; r++) {
        for (String mode : List.of("local", "standalone")) {
          Path destination = work.resolve("out-" + mode);
          if (Files.exists(destination)) {
            try (Stream<Path> old = Files.walk(destination)) {
              for (Path p : old.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
            }
          }
          Path reports = work.resolve("reports-" + mode);
          Path job = Files.writeString(work.resolve("limits-" + mode + ".conf"), """
              ferry {
                job.name = limits
                source { endpoint = "%s", bucket = limits
                  credentials { access-key-id = bench, secret-access-key = ${?SRC_SECRET_ACCESS_KEY} } }
                destination.path = "%s"
                report.path = "%s"
                limits.bandwidth = %dMiB
              }
              """.formatted(s3.endpoint(), destination, reports, capMib));
          if (mode.equals("local")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
            int code = Ferry.run(new String[] {"migrate", job.toString(), "-Dferry.spark.master=local[2]",
                "-Dferry.source.credentials.secret-access-key=" + secret}, print, print);
            if (code != 0) throw new IllegalStateException("local run failed:\n" + out);
          } else {
            try (StandaloneCluster cluster = StandaloneCluster.start(work.resolve("cluster"), 2, "1g")) {
              int code = cluster.submit(List.of("--class", "io.ferry.Ferry", "--conf", "spark.cores.max=2",
                  "--conf", "spark.executor.memory=512m", "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
                  "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.ui.enabled=false",
                  home.resolve("target/ferry.jar").toString(), "migrate", job.toString()), Map.of("SRC_SECRET_ACCESS_KEY", secret), 600);
              if (code != 0) throw new IllegalStateException("cluster run failed: " + cluster.log("submit"));
            }
          }
          JsonNode summary = new ObjectMapper().readTree(newest(reports.resolve("limits")).resolve("summary.json").toFile());
          double seconds = summary.at("/throughput/copyStageSeconds").asDouble();
          double rate = summary.at("/bytes/copied").asLong() / 1e6 / seconds;
          double cap = capMib * 1.048576;
          boolean verified = Trees.digests(destination).equals(expected);
          String row = String.format(Locale.ROOT, "%s,%s,%.2f,%d,%.2f,%.2f,%.3f,%s%n", Instant.now(), mode, cap, bytes, seconds, rate,
              rate / cap, verified ? "yes" : "NO");
          System.out.print(row);
          Files.writeString(csv, row, StandardOpenOption.APPEND);
        }
      }
    }
  }

  private static Path newest(Path job) throws Exception {
    try (Stream<Path> runs = Files.list(job)) {
      return runs.filter(p -> Files.exists(p.resolve("summary.json"))).max(Comparator.comparing(p ->
          p.toFile().lastModified())).orElseThrow();
    }
  }
}
