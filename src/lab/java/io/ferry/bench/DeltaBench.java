package io.ferry.bench;

import io.ferry.config.ConfigLoader;
import io.ferry.config.MigrationConfig;
import io.ferry.config.S3EndpointConfig;
import io.ferry.report.RunSummary;
import io.ferry.spark.run.MigrationJob;
import io.ferry.support.ElasticMqProcess;
import io.ferry.support.FaultProxy;
import io.ferry.support.S3ProxyProcess;
import io.ferry.support.TestS3;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * A delta pass's cost against a full pass's (issue 48): a bucket of {@code FERRY_DELTA_OBJECTS} objects (S3Proxy,
 * filesystem backend, on loopback) already copied into a directory; {@code FERRY_DELTA_CHANGES} keys changed at the
 * source (nine in ten overwritten, one in ten removed) with their events in an SQS queue (ElasticMQ), and a delta pass
 * run from them; then as many other keys changed without events, and a full pass (both sides listed) run. Each run's wall,
 * the requests that reached the source, the destination's entries read and the JVM's heap peak (Spark local[2]: driver
 * and executors are this JVM) go into bench/results/delta.csv. The full pass copies exactly its own batch: the delta's
 * batch was converged. The bucket and its copy are made once (files written into S3Proxy's folder, mtimes on whole
 * seconds, copied with cp -a) and kept under target/bench-delta; each invocation changes keys no earlier one changed.
 */
public final class DeltaBench {
  private static final String BUCKET = "delta";
  private static final FileTime SEEDED = FileTime.from(Instant.parse("2026-11-01T00:00:00Z"));

  private DeltaBench() {}

  public static void main(String[] args) throws Exception {
    Path home = Path.of(args[0]).toAbsolutePath();
    int objects = Integer.parseInt(System.getenv().getOrDefault("FERRY_DELTA_OBJECTS", "1000000"));
    int changes = Integer.parseInt(System.getenv().getOrDefault("FERRY_DELTA_CHANGES", "1000"));
    Path work = home.resolve("target/bench-delta");
    Path data = work.resolve("data-" + objects);
    Path destination = work.resolve("copy-" + objects);
    seed(data.resolve(BUCKET), destination, objects);
    Path usedFile = work.resolve("changed-" + objects); // how many keys earlier invocations changed: each key changes once
    int used = Files.exists(usedFile) ? Integer.parseInt(Files.readString(usedFile).trim()) : 0;
    if (used + 2L * changes > objects) throw new IllegalStateException("every key changed once: seed again (rm -r " + work + ")");
    Files.writeString(usedFile, Integer.toString(used + 2 * changes));
    String secret = "bench-secret";
    try (S3ProxyProcess s3 = S3ProxyProcess.start(data, "bench", secret);
        FaultProxy counter = FaultProxy.before(s3.endpoint());
        ElasticMqProcess queues = ElasticMqProcess.start(work.resolve("queue"))) {
      S3Client client = TestS3.client(S3EndpointConfig.withKeys(s3.endpoint(), "us-east-1", "bench", secret));
      String url = queues.createQueue("delta-" + used, Duration.ofMinutes(10));
      SparkContext sc = new SparkContext(new SparkConf().setMaster("local[2]").setAppName("DeltaBench").set("spark.ui.enabled", "false")
          .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1"));
      try {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
        Path csv = home.resolve("bench/results/delta.csv");
        if (!Files.exists(csv)) {
          Files.writeString(csv, "when,pass,objects,changed,seconds,list_pages,heads,gets,destination_entries_read,heap_peak_mib,copied,"
              + "deleted,stage_seconds\n");
        }
        Path unsettled = work.resolve("unsettled-" + objects); // an invocation that did not finish left changes no pass copied
        if (Files.exists(unsettled)) settle(job(counter.endpoint(), destination, work), secret, jsc);
        Files.writeString(unsettled, Instant.now().toString());
        List<String> records = change(client, objects, changes, used);
        try (SqsClient sqs = queues.client()) {
          for (int i = 0; i < records.size(); i += 10) {
            List<SendMessageBatchRequestEntry> batch = new ArrayList<>();
            for (int j = i; j < Math.min(records.size(), i + 10); j++) {
              batch.add(SendMessageBatchRequestEntry.builder().id(Integer.toString(j)).messageBody(records.get(j)).build());
            }
            sqs.sendMessageBatch(r -> r.queueUrl(url).entries(batch));
          }
        }
        String base = job(counter.endpoint(), destination, work);
        String delta = base + "ferry.source { changes = events, events.queue = \"" + url + "\" }\n";
        measure("events", delta, secret, jsc, counter, objects, changes, csv, changes * 9 / 10, changes / 10);
        change(client, objects, changes, used + changes); // no events: only a listing finds these
        measure("listing", base, secret, jsc, counter, objects, changes, csv, changes * 9 / 10, changes / 10);
        Files.delete(unsettled);
      } finally {
        sc.stop();
      }
    }
  }

  private static String job(String endpoint, Path destination, Path work) {
    return """
        ferry {
          job.name = delta-bench
          source { endpoint = "%s", bucket = %s, credentials.access-key-id = bench }
          destination { path = "%s", delete-extraneous = true, max-delete = 100000 }
          copy.stall-timeout = 300s
          report.path = "%s"
        }
        """.formatted(endpoint, BUCKET, destination, work.resolve("reports"));
  }

  /** A full pass, not measured: what an unfinished invocation changed, copied. */
  private static void settle(String hocon, String secret, JavaSparkContext jsc) throws Exception {
    Path job = Files.writeString(Files.createTempFile("delta-bench", ".conf"), hocon);
    RunSummary summary = MigrationJob.run(ConfigLoader.load(job, Map.of("ferry.source.credentials.secret-access-key", secret)), jsc,
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    System.out.printf(Locale.ROOT, "settled what an unfinished invocation changed: %d copied, %d deleted%n", summary.objects().copied(),
        summary.objects().deleted());
  }

  /** One pass: its row, after checking that it copied and deleted what its batch changed and nothing else. */
  private static void measure(String pass, String hocon, String secret, JavaSparkContext jsc, FaultProxy counter, int objects,
      int changes, Path csv, long copies, long deletions) throws Exception {
    Path job = Files.writeString(Files.createTempFile("delta-bench", ".conf"), hocon);
    MigrationConfig config = ConfigLoader.load(job, Map.of("ferry.source.credentials.secret-access-key", secret));
    Map<FaultProxy.Kind, Integer> before = counts(counter);
    System.gc();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) pool.resetPeakUsage();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long start = System.nanoTime();
    RunSummary summary = MigrationJob.run(config, jsc, new PrintStream(out, true, StandardCharsets.UTF_8));
    double seconds = (System.nanoTime() - start) / 1e9;
    long heap = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) heap += pool.getPeakUsage().getUsed();
    }
    Map<FaultProxy.Kind, Integer> after = counts(counter);
    String console = out.toString(StandardCharsets.UTF_8);
    if (summary.objects().copied() != copies || summary.objects().deleted() != deletions || summary.objects().failed() != 0) {
      throw new IllegalStateException(pass + " copied " + summary.objects().copied() + " and deleted " + summary.objects().deleted()
          + ", expected " + copies + " and " + deletions + ":\n" + console);
    }
    long entries = pass.equals("events") ? changes : summary.objects().listed(); // a directory's entries: one stat a key, or all
    String stages = summary.stageSeconds().entrySet().stream().map(e -> e.getKey() + "=" + String.format(Locale.ROOT, "%.1f", e.getValue()))
        .reduce((a, b) -> a + " " + b).orElse("");
    String row = String.format(Locale.ROOT, "%s,%s,%d,%d,%.1f,%d,%d,%d,%d,%d,%d,%d,%s%n", Instant.now(), pass, objects, changes, seconds,
        after.get(FaultProxy.Kind.LIST_OBJECTS) - before.get(FaultProxy.Kind.LIST_OBJECTS),
        after.get(FaultProxy.Kind.HEAD_OBJECT) - before.get(FaultProxy.Kind.HEAD_OBJECT),
        after.get(FaultProxy.Kind.GET_OBJECT) - before.get(FaultProxy.Kind.GET_OBJECT), entries, heap >> 20,
        summary.objects().copied(), summary.objects().deleted(), stages);
    System.out.print(console);
    System.out.print(row);
    Files.writeString(csv, row, StandardOpenOption.APPEND);
  }

  private static Map<FaultProxy.Kind, Integer> counts(FaultProxy counter) {
    Map<FaultProxy.Kind, Integer> counts = new HashMap<>();
    for (FaultProxy.Kind k : FaultProxy.Kind.values()) counts.put(k, counter.seen(k));
    return counts;
  }

  private static String key(int i) {
    return String.format(Locale.ROOT, "events/date=2026-%02d-%02d/part-%07d.json", 1 + i / 100 % 12, 1 + i % 28, i);
  }

  /**
   * {@code changes} keys changed at the source from the {@code from}-th on, each a key no other batch changes (a stride
   * coprime with the count): nine in ten overwritten, one in ten removed. Returns each change's event, as AWS would send it.
   */
  private static List<String> change(S3Client s3, int objects, int changes, int from) {
    List<String> events = new ArrayList<>();
    for (int i = 0; i < changes; i++) {
      String key = key((int) (((long) from + i) * 999_983L % objects));
      String name;
      String object = "\"key\": \"" + URLEncoder.encode(key, StandardCharsets.UTF_8) + "\"";
      if (i % 10 == 9) {
        s3.deleteObject(b -> b.bucket(BUCKET).key(key));
        name = "ObjectRemoved:Delete";
      } else {
        String text = "changed as the " + (from + i) + "th change: " + key;
        String etag = s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString(text)).eTag().replace("\"", "");
        object += ", \"size\": " + text.length() + ", \"eTag\": \"" + etag + "\"";
        name = "ObjectCreated:Put";
      }
      events.add("{\"Records\": [{\"eventVersion\": \"2.1\", \"eventSource\": \"aws:s3\", \"eventName\": \"" + name + "\", \"s3\":"
          + " {\"bucket\": {\"name\": \"" + BUCKET + "\"}, \"object\": {" + object + "}}}]}");
    }
    return events;
  }

  /** The bucket's objects as S3Proxy's files, and their copy as a finished bulk copy leaves it; once. */
  private static void seed(Path bucket, Path destination, int objects) throws IOException, InterruptedException {
    Path marker = bucket.resolveSibling("seeded");
    if (Files.exists(marker)) return;
    long start = System.nanoTime();
    for (int i = 0; i < objects; i++) {
      Path file = bucket.resolve(key(i));
      if (i % 28 == 0 || !Files.isDirectory(file.getParent())) Files.createDirectories(file.getParent());
      Files.writeString(file, key(i));
      Files.setLastModifiedTime(file, SEEDED);
    }
    Process cp = new ProcessBuilder("cp", "-a", bucket.toString(), destination.toString()).inheritIO().start();
    if (cp.waitFor() != 0) throw new IOException("cp -a failed");
    System.out.printf(Locale.ROOT, "seeded %d objects and their copy in %.0f s%n", objects, (System.nanoTime() - start) / 1e9);
    Files.writeString(marker, Instant.now().toString());
  }
}
