package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.BucketConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.config.ObjectWrites;
import io.ferry.report.RunSummary;
import io.ferry.spark.run.Commands;
import io.ferry.spark.run.MigrationJob;
import io.ferry.spark.SparkStart;
import io.ferry.store.Lister;
import io.ferry.store.retry.Retrier;
import io.ferry.store.Shard;
import io.ferry.store.StoreObject;
import io.ferry.store.s3.S3Store;
import io.ferry.support.Jobs;
import io.ferry.support.LocalSpark;
import io.ferry.support.S3Backend;
import io.ferry.support.Trees;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Listing at scale against a real S3 server (S3Proxy): key-space shards that cover every key once (keys at the
 * shards' edges, unicode, empty shards), manifests (a key list, S3 Inventory reports in CSV.gz and Parquet) with keys
 * the bucket no longer holds, a rerun that skips unchanged objects through the join, delete-extraneous, and the
 * filters (prefixes, sizes, times).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ListingIT {
  @TempDir static Path work;
  private S3Backend s3;
  private SparkSession spark;
  /** Bucket "keys": the key-space test's keys, each holding its own name. */
  private final List<String> keys = new ArrayList<>();

  @BeforeAll
  void start() throws Exception {
    s3 = S3Backend.start(work.resolve("s3"));
    spark = LocalSpark.start("ListingIT");
    S3Client client = s3.client();
    client.createBucket(b -> b.bucket("keys"));
    keys.addAll(IntStream.range(0, 2_600).mapToObj(i -> String.format(Locale.ROOT, "flat/img_%05d.jpg", i)).toList());
    keys.addAll(IntStream.range(0, 1_200).mapToObj(i -> String.format(Locale.ROOT, "tree/%02d/part-%04d", i % 12, i)).toList());
    // the splitting's bounds as keys, keys between its alphabet's characters, and characters above U+FFFF
    keys.addAll(List.of("flat/img_", "flat/img_0", "flat/img_1", "flat/img_2", "flat/img_0z", "flat/img_-", "flat/img__", "flat/img_~",
        "flat/img_\u00e9t\u00e9", "flat/img_\uFF21", "flat/img_\uD83D\uDE00", "flat/img_\uD83D\uDE00x", "flat0", "tree0",
        "\u4e2d\u6587/\u6587\u4ef6", "z"));
    // (no "flat" beside "flat/...": S3Proxy keeps objects as files too, and a filesystem cannot hold both; TriageTest has them)
    put(client, "keys", keys, k -> k.getBytes(StandardCharsets.UTF_8));
  }

  /** Bucket "media": folders, sizes and two upload times; returns key → bytes. */
  private Map<String, byte[]> media;
  private Instant between;

  private Map<String, byte[]> media() throws Exception {
    if (media != null) return media;
    S3Client client = s3.client();
    client.createBucket(b -> b.bucket("media"));
    media = new TreeMap<>();
    media.put("2018/a.bin", bytes(100, 1));
    media.put("2018/b.bin", bytes(5000, 2));
    media.put("2018x/c.bin", bytes(100, 3));
    media.put("2019/d.bin", bytes(100, 4));
    media.forEach((k, v) -> client.putObject(b -> b.bucket("media").key(k), RequestBody.fromBytes(v)));
    Thread.sleep(1100); // modification times have whole seconds
    between = Instant.now();
    Thread.sleep(1100);
    media.put("late/e.bin", bytes(300, 5));
    client.putObject(b -> b.bucket("media").key("late/e.bin"), RequestBody.fromBytes(media.get("late/e.bin")));
    return media;
  }

  private static byte[] bytes(int size, int seed) {
    byte[] b = new byte[size];
    new java.util.Random(seed).nextBytes(b);
    return b;
  }

  private static Map<String, byte[]> only(Map<String, byte[]> objects, String... keys) {
    Map<String, byte[]> out = new TreeMap<>();
    for (String k : keys) out.put(k, objects.get(k));
    return out;
  }

  @AfterAll
  void stop() throws Exception {
    spark.stop();
    s3.close();
  }

  /** Four at a time: S3Proxy's filesystem backend answers 500 to many concurrent PUTs that create one folder. */
  private static void put(S3Client client, String bucket, List<String> keys, java.util.function.Function<String, byte[]> body)
      throws Exception {
    java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(4);
    try {
      List<String> failed = java.util.Collections.synchronizedList(new ArrayList<>());
      pool.submit(() -> keys.parallelStream().forEach(k -> {
        try {
          client.putObject(b -> b.bucket(bucket).key(k), RequestBody.fromBytes(body.apply(k)));
        } catch (RuntimeException e) {
          failed.add(k);
        }
      })).get();
      assertThat(failed).as("keys the server refused").isEmpty();
    } finally {
      pool.shutdown();
    }
  }

  private JavaSparkContext jsc() {
    return JavaSparkContext.fromSparkContext(spark.sparkContext());
  }

  private MigrationConfig config(String bucket, Path destination, String extra) {
    return Jobs.config(s3, s3.endpoint(), bucket, destination, work.resolve("reports"), extra);
  }

  private RunSummary run(MigrationConfig config, ByteArrayOutputStream out) throws Exception {
    return MigrationJob.run(config, jsc(), new PrintStream(out, true, StandardCharsets.UTF_8));
  }

  private static Map<String, String> sha(Map<String, byte[]> objects) {
    Map<String, String> out = new TreeMap<>();
    objects.forEach((k, v) -> out.put(k, sha(v)));
    return out;
  }

  private static String sha(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void shardsCoverEveryKeyOnceAndTheRunCopiesEachByContent() throws Exception {
    S3Store store = new S3Store(new BucketConfig(s3.endpointConfig(), "keys", "", ObjectWrites.NONE), 16, Duration.ofSeconds(10),
        Retrier.once());
    Lister lister = store.lister();
    // the listing's rounds, as spark/Listing runs them, against the real server's order and pages
    Map<String, Integer> seen = new ConcurrentHashMap<>();
    int empty = 0;
    int shards = 0;
    List<Shard> open = lister.shards(List.of(), 48);
    for (int round = 0; !open.isEmpty(); round++) {
      List<Shard> next = new ArrayList<>();
      for (Shard shard : open) {
        List<StoreObject> listed = new ArrayList<>();
        next.addAll(lister.listSome(shard, io.ferry.store.listing.KeySpace.pages(open.size(), round, 48), listed::add).rest());
        if (listed.isEmpty()) empty++;
        listed.forEach(o -> seen.merge(o.key(), 1, Integer::sum));
      }
      shards += open.size();
      open = next;
    }
    assertThat(shards).isGreaterThan(10);
    assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(keys);
    assertThat(seen.values()).allMatch(n -> n == 1);
    assertThat(empty).as("empty shards (bounds no key starts with)").isPositive();
    // under prefixes, with and without the trailing '/': "tree" is the folder "tree/", not "tree0"
    List<String> under = new ArrayList<>();
    for (Shard shard : lister.shards(List.of("tree/", "flat/img_1"), 8)) lister.list(shard, o -> under.add(o.key()));
    assertThat(under).containsExactlyInAnyOrderElementsOf(keys.stream().filter(k -> k.startsWith("tree/")
        || k.startsWith("flat/img_1")).toList());

    Path dest = work.resolve("shards-out");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunSummary summary = run(config("keys", dest, "ferry.plan.listing-shards = 40"), out);
    assertThat(summary.succeeded()).as(out.toString(StandardCharsets.UTF_8)).isTrue();
    assertThat(summary.objects().copied()).isEqualTo(keys.size());
    Map<String, byte[]> expected = new TreeMap<>();
    keys.forEach(k -> expected.put(k, k.getBytes(StandardCharsets.UTF_8)));
    assertThat(Trees.digests(dest)).isEqualTo(sha(expected));
  }

  @Test
  void theProgressLineCountsObjectsWhileListingAndEndsAtTheTotal() throws Exception {
    int port = Integer.parseInt(s3.endpoint().substring(s3.endpoint().lastIndexOf(':') + 1));
    try (io.ferry.support.WanEmulator slow = new io.ferry.support.WanEmulator(0, port, 10_000, 100)) { // a page takes 200 ms or more
      MigrationConfig config = Jobs.config(s3, "http://127.0.0.1:" + slow.port(), "keys", work.resolve("unused"), work.resolve("reports"),
          "ferry.plan.listing-shards = 1, ferry.report.progress-interval = 100ms");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Commands.plan(config, SparkStart.begin(), new PrintStream(out, true, StandardCharsets.UTF_8));
      List<String> lines = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("LIST  ")).toList();
      assertThat(lines).as(out.toString(StandardCharsets.UTF_8)).hasSizeGreaterThan(1);
      assertThat(lines.get(lines.size() - 1)).startsWith("LIST  " + keys.size() + " objects");
    }
  }

  @Test
  void prefixesAreFoldersAndSizesAndTimesSelect() throws Exception {
    Map<String, byte[]> all = media();
    Path dest = work.resolve("filters-folders");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    // "2018" is the folder 2018/, not 2018x/; of its objects only b.bin has at least 1 KiB
    RunSummary summary = run(config("media", dest, "ferry.source { prefixes = [\"2018\"], min-size = 1KiB }"), out);
    assertThat(summary.succeeded()).as(out.toString(StandardCharsets.UTF_8)).isTrue();
    assertThat(Trees.digests(dest)).isEqualTo(sha(only(all, "2018/b.bin")));
    Path late = work.resolve("filters-times");
    summary = run(config("media", late, "ferry.source.modified-after = \"" + between + "\""), out);
    assertThat(summary.succeeded()).isTrue();
    assertThat(Trees.digests(late)).isEqualTo(sha(only(all, "late/e.bin")));
  }

  @Test
  void aRerunSkipsTheUnchangedThroughTheJoinAndCopiesTheChanged() throws Exception {
    S3Client client = s3.client();
    client.createBucket(b -> b.bucket("sync"));
    Map<String, byte[]> objects = new TreeMap<>();
    for (int i = 0; i < 30; i++) objects.put("f/" + i, bytes(200 + i, 100 + i));
    objects.forEach((k, v) -> client.putObject(b -> b.bucket("sync").key(k), RequestBody.fromBytes(v)));
    Path dest = work.resolve("sync-out");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    MigrationConfig config = config("sync", dest, "ferry.plan.listing-shards = 4");
    assertThat(run(config, out).objects().copied()).isEqualTo(30);
    objects.put("f/7", bytes(999, 7)); // changed: another size
    client.putObject(b -> b.bucket("sync").key("f/7"), RequestBody.fromBytes(objects.get("f/7")));
    RunSummary again = run(config, out);
    assertThat(again.objects().skippedUnchanged()).isEqualTo(29);
    assertThat(again.objects().copied()).isEqualTo(1);
    assertThat(Trees.digests(dest)).isEqualTo(sha(objects));
  }

  @Test
  void deleteExtraneousDeletesWhatTheSourceNoLongerHasWithinTheSelectionAndPlanShowsIt() throws Exception {
    Map<String, byte[]> all = media();
    Path dest = work.resolve("extraneous");
    Files.createDirectories(dest.resolve("2018"));
    Files.writeString(dest.resolve("2018/gone.bin"), "deleted at the source");
    Files.writeString(dest.resolve("notes.txt"), "outside the globs: none of the job's business");
    MigrationConfig config = config("media", dest, "ferry { source.includes = [\"2018/**\"], destination.delete-extraneous = true }");
    ByteArrayOutputStream plan = new ByteArrayOutputStream();
    Commands.plan(config, SparkStart.begin(), new PrintStream(plan, true, StandardCharsets.UTF_8));
    assertThat(plan.toString(StandardCharsets.UTF_8))
        .contains("extraneous 1 objects (21 B) at the destination, in the selection, that the source's listing lacks")
        .contains("cut-over  1 of the 3 objects the destination holds in the selection once the run copied "
            + "(cap destination.max-delete = 50%)")
        .contains("would delete " + dest.resolve("2018/gone.bin") + " (21 B)");
    assertThat(dest.resolve("2018/gone.bin")).exists(); // a plan deletes nothing
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunSummary summary = run(config, out);
    assertThat(summary.objects().deleted()).as(out.toString(StandardCharsets.UTF_8)).isEqualTo(1);
    Map<String, String> expected = new TreeMap<>(sha(only(all, "2018/a.bin", "2018/b.bin")));
    expected.put("notes.txt", sha("outside the globs: none of the job's business".getBytes(StandardCharsets.UTF_8)));
    assertThat(Trees.digests(dest)).isEqualTo(expected);
  }

  @Test
  void aKeyListManifestIsCopiedAndItsMissingKeysAreReportedNotFatal() throws Exception {
    Map<String, byte[]> all = media();
    Path list = Files.writeString(work.resolve("keys.txt"), "2018/a.bin\n2019/d.bin\t100\n\ngone/never.bin\n");
    Path dest = work.resolve("manifest-keys");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunSummary summary = run(config("media", dest, "ferry.source.manifest = \"" + list + "\""), out);
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(summary.succeeded()).as(text).isTrue();
    assertThat(summary.objects().missing()).isEqualTo(1);
    assertThat(text).contains("1 named by the manifest and missing at the source");
    assertThat(Trees.digests(dest)).isEqualTo(sha(only(all, "2018/a.bin", "2019/d.bin")));
  }

  @Test
  void anS3InventoryInCsvGzOrParquetIsReadLikeAListing() throws Exception {
    Map<String, byte[]> all = media();
    Map<String, String> etags = new TreeMap<>();
    s3.client().listObjectsV2(b -> b.bucket("media")).contents().forEach(o -> etags.put(o.key(), o.eTag()));
    // CSV.gz: keys URL-encoded, every field quoted; an old version and a key the bucket no longer holds
    Path csvReport = work.resolve("inventory-csv/media/config/2026-12-01T00-00Z");
    Files.createDirectories(csvReport.resolveSibling("data"));
    StringBuilder rows = new StringBuilder();
    for (String k : List.of("2018/a.bin", "2018x/c.bin")) {
      rows.append(String.format("\"media\",\"%s\",\"\",\"true\",\"false\",\"%d\",\"2026-11-30T10:00:00.000Z\",\"%s\"%n",
          java.net.URLEncoder.encode(k, StandardCharsets.UTF_8), all.get(k).length, etags.get(k).replace("\"", "")));
    }
    rows.append("\"media\",\"2019%2Fd.bin\",\"v1\",\"false\",\"false\",\"1\",\"2020-01-01T00:00:00.000Z\",\"x\"\n");
    rows.append("\"media\",\"gone%2Fold.bin\",\"\",\"true\",\"false\",\"7\",\"2026-11-30T10:00:00.000Z\",\"y\"\n");
    try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(csvReport.resolveSibling("data").resolve("part-1.csv.gz")))) {
      gz.write(rows.toString().getBytes(StandardCharsets.UTF_8));
    }
    Files.createDirectories(csvReport);
    Path csvManifest = Files.writeString(csvReport.resolve("manifest.json"), """
        {"sourceBucket": "media", "destinationBucket": "arn:aws:s3:::inventory", "version": "2016-11-30",
         "fileFormat": "CSV", "fileSchema": "Bucket, Key, VersionId, IsLatest, IsDeleteMarker, Size, LastModifiedDate, ETag",
         "files": [{"key": "media/config/data/part-1.csv.gz", "size": 1, "MD5checksum": "00"}]}
        """);
    Path dest = work.resolve("inventory-csv-out");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunSummary summary = run(config("media", dest, "ferry.source.manifest = \"" + csvManifest + "\""), out);
    assertThat(summary.succeeded()).as(out.toString(StandardCharsets.UTF_8)).isTrue();
    assertThat(summary.objects().missing()).isEqualTo(1);
    assertThat(Trees.digests(dest)).isEqualTo(sha(only(all, "2018/a.bin", "2018x/c.bin")));

    // Parquet, trusted as it is (manifest-check = false): its sizes and ETags are the plan's
    Path parquetReport = Files.createDirectories(work.resolve("inventory-parquet/media/config/2026-12-01T00-00Z"));
    Files.createDirectories(parquetReport.resolveSibling("data"));
    MessageType schema = MessageTypeParser.parseMessageType("message s3.inventory { required binary bucket (STRING);"
        + " required binary key (STRING); optional int64 size; optional int64 last_modified_date (TIMESTAMP(MILLIS,true));"
        + " optional binary e_tag (STRING); optional boolean is_latest; }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new
        LocalOutputFile(parquetReport.resolveSibling("data").resolve("p.parquet")))
        .withType(schema).build()) {
      for (String k : List.of("2019/d.bin", "late/e.bin")) {
        writer.write(groups.newGroup().append("bucket", "media").append("key", k).append("size", (long) all.get(k).length)
            .append("last_modified_date", 1_764_000_000_000L).append("e_tag", etags.get(k)).append("is_latest", true));
      }
    }
    Path parquetManifest = Files.writeString(parquetReport.resolve("manifest.json"), """
        {"sourceBucket": "media", "destinationBucket": "arn:aws:s3:::inventory", "fileFormat": "Parquet",
         "fileSchema": "message s3.inventory { required binary bucket; required binary key; }",
         "files": [{"key": "media/config/data/p.parquet", "size": 1, "MD5checksum": "00"}]}
        """);
    Path parquetDest = work.resolve("inventory-parquet-out");
    summary = run(config("media", parquetDest, "ferry.source { manifest = \"" + parquetManifest + "\", manifest-check = false }"), out);
    assertThat(summary.succeeded()).as(out.toString(StandardCharsets.UTF_8)).isTrue();
    assertThat(Trees.digests(parquetDest)).isEqualTo(sha(only(all, "2019/d.bin", "late/e.bin")));
  }
}
