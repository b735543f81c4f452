package io.ferry.demo;

import io.ferry.support.S3ProxyProcess;
import io.ferry.support.SeedData;
import io.ferry.Ferry;
import io.ferry.config.S3EndpointConfig;
import io.ferry.store.s3.S3Clients;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The embedded default: starts an S3 server (S3Proxy in a child JVM), seeds it with sample data, runs a real
 * migration bucket → local directory on local Spark, then bucket → bucket on the same server (server-side copies),
 * checks every copy against its source by SHA-256, and says where the reports are. {@code jobs/demo.sh} runs it.
 */
public final class Demo {
  private Demo() {}

  public static void main(String[] args) throws Exception {
    Path work = Path.of(args.length > 0 ? args[0] : "target/demo").toAbsolutePath();
    long largeBytes = Long.parseLong(System.getProperty("ferry.demo.large-bytes", String.valueOf(320L << 20)));
    int smallCount = Integer.getInteger("ferry.demo.small-objects", 300);
    deleteTree(work);
    Files.createDirectories(work);
    String identity = "ferry-demo";
    String secret = UUID.randomUUID().toString();
    int code;
    try (S3ProxyProcess server = S3ProxyProcess.start(work.resolve("s3-data"), identity, secret)) {
      System.out.println("Demo S3 server (S3Proxy, SigV4) at " + server.endpoint() + "; seeding bucket ferry-demo ...");
      S3EndpointConfig endpoint = S3EndpointConfig.withKeys(server.endpoint(), "us-east-1", identity, secret);
      S3Client s3 = io.ferry.support.TestS3.client(endpoint);
      long seedStart = System.nanoTime();
      Map<String, String> digests = SeedData.upload(s3, "ferry-demo", SeedData.mix(largeBytes, smallCount));
      System.out.printf("Seeded %d objects (largest %d MiB) in %.1f s%n", digests.size(), largeBytes >> 20,
          (System.nanoTime() - seedStart) / 1e9);

      // 1. bucket -> local directory
      Path conf = work.resolve("demo.conf");
      Files.writeString(conf, """
          # Written by the demo: bucket -> local directory on local Spark.
          ferry {
            job.name = demo
            source {
              endpoint = "%s"
              region = us-east-1
              path-style = true
              bucket = ferry-demo
              credentials {
                access-key-id = "%s"
                secret-access-key = ${?FERRY_DEMO_SECRET}   # passed by the demo as -D, never written here
              }
            }
            destination.path = "%s"
            plan.part-size = 32MiB
            report.path = "%s"
          }
          """.formatted(server.endpoint(), identity, work.resolve("migrated"), work.resolve("reports")));
      System.out.println("Job file: " + conf);
      String secretOverride = "-Dferry.source.credentials.secret-access-key=" + secret;
      code = Ferry.run(new String[] {"migrate", conf.toString(), secretOverride}, System.out, System.err);
      if (code == Ferry.OK) code = verify(work.resolve("migrated"), digests);

      // 2. bucket -> another bucket of the same service: server-side copies, no bytes through Spark
      if (code == Ferry.OK) {
        s3.createBucket(b -> b.bucket("ferry-demo-copy"));
        System.out.println();
        System.out.println("Second job: the same bucket into bucket ferry-demo-copy on the same server (server-side copy)");
        code = Ferry.run(new String[] {"migrate", conf.toString(), secretOverride,
            "-Dferry.job.name=demo-bucket", "-Dferry.destination.type=s3", "-Dferry.destination.endpoint=" + server.endpoint(),
            "-Dferry.destination.bucket=ferry-demo-copy", "-Dferry.destination.credentials.access-key-id=" + identity,
            "-Dferry.destination.credentials.secret-access-key=" + secret}, System.out, System.err);
        if (code == Ferry.OK) code = verifyBucket(s3, "ferry-demo-copy", digests);
      }
    }
    S3Clients.closeAll();
    System.exit(code);
  }

  private static int verify(Path root, Map<String, String> digests) throws IOException {
    int bad = 0;
    for (Map.Entry<String, String> e : digests.entrySet()) {
      Path file = root.resolve(e.getKey());
      if (!Files.isRegularFile(file) || !SeedData.sha256(file).equals(e.getValue())) {
        System.out.println("MISMATCH " + e.getKey());
        bad++;
      }
    }
    System.out.printf("Verified: %d of %d files byte-identical to their source objects (SHA-256)%n", digests.size() - bad, digests.size());
    return bad == 0 ? Ferry.OK : Ferry.SOME_FAILED;
  }

  private static int verifyBucket(S3Client s3, String bucket, Map<String, String> digests) throws IOException {
    int bad = 0;
    for (Map.Entry<String, String> e : digests.entrySet()) {
      MessageDigest sha = SeedData.sha256();
      try (InputStream in = s3.getObject(b -> b.bucket(bucket).key(e.getKey()))) {
        byte[] buffer = new byte[1 << 20];
        for (int n; (n = in.read(buffer)) > 0; ) sha.update(buffer, 0, n);
      }
      if (!HexFormat.of().formatHex(sha.digest()).equals(e.getValue())) {
        System.out.println("MISMATCH s3://" + bucket + "/" + e.getKey());
        bad++;
      }
    }
    System.out.printf("Verified: %d of %d objects in s3://%s byte-identical to their sources (SHA-256)%n",
        digests.size() - bad, digests.size(), bucket);
    return bad == 0 ? Ferry.OK : Ferry.SOME_FAILED;
  }


  /** Deletes a directory tree, if it exists. */
  public static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) return;
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
    }
  }
}
