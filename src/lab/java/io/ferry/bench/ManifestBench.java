package io.ferry.bench;

import io.ferry.config.ConfigLoader;
import io.ferry.config.MigrationConfig;
import io.ferry.config.S3EndpointConfig;
import io.ferry.report.VerifySummary;
import io.ferry.spark.SparkStart;
import io.ferry.spark.run.Commands;
import io.ferry.support.FaultProxy;
import io.ferry.support.S3ProxyProcess;
import io.ferry.support.SeedData;
import io.ferry.support.TestS3;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What a proof costs (issue 48): {@code FERRY_MANIFEST_OBJECTS} objects of {@code FERRY_MANIFEST_MIB} MiB in a bucket
 * (S3Proxy on loopback, each with its CRC32C) and two copies of them, one whose store keeps a full-object CRC32C of each
 * (multipart, so no ETag is an MD5) and one that keeps none. {@code verify --manifest} against each, and plain {@code
 * verify} against the second, after one not recorded (Spark's first jobs): wall seconds, the GETs and HEADs that reached
 * the store, the bytes read, into bench/results/manifest.csv. Spark local[2] in this JVM.
 */
public final class ManifestBench {
  private ManifestBench() {}

  public static void main(String[] args) throws Exception {
    Path home = Path.of(args[0]).toAbsolutePath();
    int objects = Integer.parseInt(System.getenv().getOrDefault("FERRY_MANIFEST_OBJECTS", "16"));
    int mib = Integer.parseInt(System.getenv().getOrDefault("FERRY_MANIFEST_MIB", "64"));
    Path work = home.resolve("target/bench-manifest");
    String secret = "bench-secret";
    try (S3ProxyProcess s3 = S3ProxyProcess.start(Files.createDirectories(work.resolve("data-" + objects + "x" + mib)), "bench", secret);
        FaultProxy counter = FaultProxy.before(s3.endpoint())) {
      S3Client client = TestS3.client(S3EndpointConfig.withKeys(s3.endpoint(), "us-east-1", "bench", secret));
      seed(client, objects, mib);
      SparkContext sc = new SparkContext(new SparkConf().setMaster("local[2]").setAppName("ManifestBench").set("spark.ui.enabled", "false")
          .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1"));
      try {
        Path csv = home.resolve("bench/results/manifest.csv");
        if (!Files.exists(csv)) Files.writeString(csv, "when,run,objects,mib_each,seconds,gets,heads,bytes_read,passed,statuses\n");
        measure("warm-up", "plain", Commands.Verify.DIFFERENCES, counter, secret, work, objects, mib, null); // Spark's first jobs, JIT
        measure("manifest-kept", "kept", Commands.Verify.MANIFEST, counter, secret, work, objects, mib, csv);
        measure("manifest-read", "plain", Commands.Verify.MANIFEST, counter, secret, work, objects, mib, csv);
        measure("verify-read", "plain", Commands.Verify.DIFFERENCES, counter, secret, work, objects, mib, csv);
      } finally {
        sc.stop();
      }
    }
  }

  private static void measure(String name, String destination, Commands.Verify asked, FaultProxy counter, String secret, Path work,
      int objects, int mib, Path csv) throws Exception {
    Path job = Files.writeString(work.resolve(destination + ".conf"), """
        ferry {
          job.name = manifest-bench
          source { endpoint = "%1$s", bucket = src, credentials.access-key-id = bench }
          destination { type = s3, endpoint = "%1$s", bucket = %2$s, credentials.access-key-id = bench }
          report.path = "%3$s"
        }
        """.formatted(counter.endpoint(), destination, work.resolve("reports")));
    MigrationConfig config = ConfigLoader.load(job, Map.of("ferry.source.credentials.secret-access-key", secret,
        "ferry.destination.credentials.secret-access-key", secret));
    int gets = counter.seen(FaultProxy.Kind.GET_OBJECT);
    int heads = counter.seen(FaultProxy.Kind.HEAD_OBJECT);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long start = System.nanoTime();
    VerifySummary summary = Commands.verify(config, SparkStart.begin(), asked, new PrintStream(out, true, StandardCharsets.UTF_8));
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.print(out.toString(StandardCharsets.UTF_8));
    if (!summary.passed()) throw new IllegalStateException(name + ": the copy should match");
    String row = String.format(Locale.ROOT, "%s,%s,%d,%d,%.1f,%d,%d,%d,%s,%s%n", Instant.now(), name, objects, mib, seconds,
        counter.seen(FaultProxy.Kind.GET_OBJECT) - gets, counter.seen(FaultProxy.Kind.HEAD_OBJECT) - heads, summary.bytesRead(),
        summary.passed(), summary.objects().toString().replaceAll("[{}, ]", " ").trim());
    System.out.print(row);
    if (csv != null) Files.writeString(csv, row, StandardOpenOption.APPEND);
  }

  /** The source and its two copies, once. */
  private static void seed(S3Client c, int objects, int mib) {
    for (String b : List.of("src", "kept", "plain")) {
      if (c.listBuckets().buckets().stream().noneMatch(x -> x.name().equals(b))) c.createBucket(r -> r.bucket(b));
    }
    if (c.listObjectsV2(r -> r.bucket("plain")).keyCount() == objects) return;
    for (int i = 0; i < objects; i++) {
      byte[] bytes = new byte[mib << 20];
      new SplittableRandom(i).nextBytes(bytes);
      String key = String.format(Locale.ROOT, "big/%04d.bin", i);
      c.putObject(r -> r.bucket("src").key(key).checksumCRC32C(SeedData.crc32c(bytes, 0, bytes.length)), RequestBody.fromBytes(bytes));
      SeedData.putInParts(c, "kept", key, bytes, 16 << 20, true);
      SeedData.putInParts(c, "plain", key, bytes, 16 << 20, false);
    }
  }
}
