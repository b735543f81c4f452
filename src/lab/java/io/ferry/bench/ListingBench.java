package io.ferry.bench;

import io.ferry.support.WanEmulator;
import io.ferry.config.ConfigLoader;
import io.ferry.config.MigrationConfig;
import io.ferry.config.S3EndpointConfig;
import io.ferry.support.S3ProxyProcess;
import io.ferry.spark.run.Commands;
import io.ferry.spark.SparkStart;
import io.ferry.support.TestS3;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Listing speed: {@code ferry plan} of a bucket of real objects on S3Proxy behind the WAN emulator, with one
 * listing stream ({@code plan.listing-shards = 1}, one ListObjectsV2 page after another) and with the key space split
 * into more and more shards listed in parallel by the executors (Spark local[2], 16 streams per task). The bucket is
 * seeded once and kept under target/bench-listing. Results: bench/results/listing.csv and listing.md.
 *
 * <p>Environment: FERRY_LISTING_OBJECTS (200000), FERRY_LISTING_SHARDS ("1,64": the target; a folder splits into all
 * its subfolders at once), FERRY_LISTING_STREAMS ("16": listing requests in flight per task, 2 tasks),
 * FERRY_LISTING_DELAY_MS (10, each way), FERRY_LISTING_REPEAT (1).
 */
public final class ListingBench {
  private ListingBench() {}

  public static void main(String[] args) throws Exception {
    Path home = Path.of(args[0]).toAbsolutePath();
    int objects = Integer.parseInt(System.getenv().getOrDefault("FERRY_LISTING_OBJECTS", "200000"));
    long delay = Long.parseLong(System.getenv().getOrDefault("FERRY_LISTING_DELAY_MS", "10"));
    int repeat = Integer.parseInt(System.getenv().getOrDefault("FERRY_LISTING_REPEAT", "1"));
    List<Integer> shardCounts = numbers(System.getenv().getOrDefault("FERRY_LISTING_SHARDS", "1,64"));
    List<Integer> streamCounts = numbers(System.getenv().getOrDefault("FERRY_LISTING_STREAMS", "16"));
    Path work = home.resolve("target/bench-listing");
    Files.createDirectories(work);
    String secret = "bench-secret";
    try (S3ProxyProcess s3 = S3ProxyProcess.start(work.resolve("data"), "bench", secret);
        WanEmulator wan = new WanEmulator(0, port(s3.endpoint()), 10_000, delay)) {
      seed(TestS3.client(S3EndpointConfig.withKeys(s3.endpoint(), "us-east-1", "bench", secret)), "listing", objects, work);
      SparkContext sc = new SparkContext(new SparkConf().setMaster("local[2]").setAppName("ListingBench").set("spark.ui.enabled", "false")
          .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1"));
      try {
        Path csv = home.resolve("bench/results/listing.csv");
        if (!Files.exists(csv)) Files.writeString(csv,
            "when,objects,delay_ms,shards,shards_found,streams,seconds,objects_per_s,list_pages\n");
        for (int r = 0; r < repeat; r++) {
          for (int shards : shardCounts) for (int streams : streamCounts) {
            Path job = work.resolve("listing.conf");
            Files.writeString(job, """
                ferry {
                  job.name = listing-bench
                  source { endpoint = "http://127.0.0.1:%d", bucket = listing, credentials.access-key-id = bench }
                  destination.path = "%s"
                  copy { skip-unchanged = false, stall-timeout = 300s, streams-per-task = %d } # S3Proxy: seconds a page of a large folder
                  plan.listing-shards = %d
                  report.path = "%s"
                }
                """.formatted(wan.port(), work.resolve("unused"), streams, shards, work.resolve("reports")));
            MigrationConfig config = ConfigLoader.load(job, Map.of("ferry.source.credentials.secret-access-key", secret));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            long start = System.nanoTime();
            Commands.plan(config, SparkStart.begin(), new PrintStream(out, true, StandardCharsets.UTF_8));
            double seconds = (System.nanoTime() - start) / 1e9;
            String text = out.toString(StandardCharsets.UTF_8);
            long listed = group(text, "(\\d+) listed");
            long pages = group(text, "source: (\\d+) LIST pages");
            long found = group(text, "listed +in (\\d+) shards");
            if (listed != objects) throw new IllegalStateException("listed " + listed + " of " + objects + ":\n" + text);
            String row = String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%.2f,%.0f,%d%n", Instant.now(), objects, delay, shards, found,
                streams, seconds,
                objects / seconds, pages);
            System.out.print(row);
            Files.writeString(csv, row, StandardOpenOption.APPEND);
          }
        }
      } finally {
        sc.stop();
      }
    }
  }

  private static List<Integer> numbers(String list) {
    List<Integer> numbers = new ArrayList<>();
    for (String s : list.split(",")) numbers.add(Integer.parseInt(s.trim()));
    return numbers;
  }

  private static long group(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  private static int port(String endpoint) {
    return Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
  }

  /** Keys as a partitioned dataset writes them: 100 dates of {@code objects / 100} parts. */
  public static void seed(S3Client s3, String bucket, int objects, Path work) throws Exception {
    Path marker = work.resolve("seeded-" + objects);
    if (Files.exists(marker)) return;
    if (s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals(bucket))) s3.createBucket(b -> b.bucket(bucket));
    ExecutorService pool = Executors.newFixedThreadPool(32);
    List<Future<?>> puts = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < objects; i++) {
      String key = String.format(Locale.ROOT, "events/date=2026-%02d-%02d/part-%06d.json", 1 + i / 100 % 12, 1 + i % 28, i);
      puts.add(pool.submit(() -> s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(key))));
      if (puts.size() >= 10_000) {
        for (Future<?> f : puts) f.get();
        puts.clear();
      }
    }
    for (Future<?> f : puts) f.get();
    pool.shutdown();
    System.out.printf(Locale.ROOT, "seeded %d objects in %.0f s%n", objects, (System.nanoTime() - start) / 1e9);
    Files.writeString(marker, Instant.now().toString());
  }
}
