package io.ferry;

import io.ferry.spark.run.MigrationJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.support.SeedData;
import io.ferry.report.RunSummary;
import io.ferry.support.Buckets;
import io.ferry.support.FaultProxy;
import io.ferry.support.Jobs;
import io.ferry.support.LocalSpark;
import io.ferry.support.S3Backend;
import io.ferry.support.TokenServer;
import io.ferry.support.Trees;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * Bucket → bucket across two providers (two S3Proxy servers with their own credentials), inside one service
 * (server-side copies), and files → bucket; every copy compared by content, metadata compared, and a failing copy
 * leaves no object and no open multipart upload.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BucketMigrationIT {
  private static final long MIB = 1L << 20;
  @TempDir static Path work;
  private S3Backend providerA;
  private S3Backend providerB;
  private SparkSession spark;
  private Map<String, String> source;
  private long sourceBytes;

  @BeforeAll
  void start() throws Exception {
    providerA = S3Backend.start(work.resolve("a"));
    providerB = S3Backend.start(work.resolve("b"));
    spark = LocalSpark.start("BucketMigrationIT");
    List<SeedData.Spec> specs = new ArrayList<>(SeedData.mix(24 * MIB + 3, 20));
    specs.add(new SeedData.Spec("boundary/part", 8 * MIB, 8));
    specs.add(new SeedData.Spec("boundary/part-plus-1", 8 * MIB + 1, 9));
    source = new TreeMap<>(SeedData.upload(providerA.client(), "src", specs));
    sourceBytes = specs.stream().mapToLong(SeedData.Spec::size).sum();
    S3Client a = providerA.client();
    byte[] page = "<html>héllo</html>".getBytes(StandardCharsets.UTF_8);
    a.putObject(b -> b.bucket("src").key("meta/page.html").contentType("text/html; charset=utf-8").contentEncoding("identity")
        .contentDisposition("inline; filename=\"page.html\"").cacheControl("max-age=60").metadata(Map.of("owner", "ferry-team")),
        RequestBody.fromBytes(page));
    source.put("meta/page.html", sha(page));
    // a multipart source object with metadata, copied as parts
    String upload = a.createMultipartUpload(b -> b.bucket("src").key("meta/big.bin").contentType("application/x-custom")
        .cacheControl("no-cache").metadata(Map.of("checksum-note", "seeded"))).uploadId();
    byte[] part1 = new byte[(int) (6 * MIB)];
    byte[] part2 = new byte[(int) (5 * MIB + 7)];
    new java.util.Random(5).nextBytes(part1);
    new java.util.Random(6).nextBytes(part2);
    String e1 = a.uploadPart(b -> b.bucket("src").key("meta/big.bin").uploadId(upload).partNumber(1), RequestBody.fromBytes(part1)).eTag();
    String e2 = a.uploadPart(b -> b.bucket("src").key("meta/big.bin").uploadId(upload).partNumber(2), RequestBody.fromBytes(part2)).eTag();
    a.completeMultipartUpload(b -> b.bucket("src").key("meta/big.bin").uploadId(upload).multipartUpload(CompletedMultipartUpload.builder()
        .parts(CompletedPart.builder().partNumber(1).eTag(e1).build(), CompletedPart.builder().partNumber(2).eTag(e2).build()).build()));
    byte[] big = new byte[part1.length + part2.length];
    System.arraycopy(part1, 0, big, 0, part1.length);
    System.arraycopy(part2, 0, big, part1.length, part2.length);
    source.put("meta/big.bin", sha(big));
    sourceBytes += page.length + big.length;
  }

  @AfterAll
  void stop() throws Exception {
    if (spark != null) spark.stop();
    if (providerA != null) providerA.close();
    if (providerB != null) providerB.close();
  }

  private static String sha(byte[] bytes) {
    return java.util.HexFormat.of().formatHex(SeedData.sha256().digest(bytes));
  }

  private String destination(S3Backend to, String endpoint, String bucket, String prefix, String extra) {
    return """
        ferry.destination {
          type = s3
          endpoint = "%s"
          bucket = %s
          prefix = "%s"
          credentials { access-key-id = "%s", secret-access-key = "%s" }
        }
        %s
        """.formatted(endpoint, bucket, prefix, to.identity(), to.secret(), extra);
  }

  private RunSummary migrate(String hocon) throws Exception {
    var config = io.ferry.config.ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString(hocon),
        Map.of("ferry.source.credentials.secret-access-key", providerA.secret()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunSummary summary = MigrationJob.run(config, JavaSparkContext.fromSparkContext(spark.sparkContext()), new PrintStream(out, true,
        StandardCharsets.UTF_8));
    assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain(providerA.secret()).doesNotContain(providerB.secret());
    return summary;
  }

  private Dataset<Row> ranges(RunSummary summary) {
    return spark.read().parquet(summary.reportPath() + "/ranges.parquet");
  }

  /** The source's content headers and user metadata, and its modification time as rclone's mtime where it had none. */
  private static void assertSameMetadata(S3Client from, String fromBucket, S3Client to, String toBucket, String toPrefix, String key,
      boolean inService) {
    HeadObjectResponse a = from.headObject(b -> b.bucket(fromBucket).key(key));
    HeadObjectResponse b = to.headObject(h -> h.bucket(toBucket).key(toPrefix + key));
    Map<String, String> user = new TreeMap<>(a.metadata());
    // a CopyObject keeps the source's metadata as it is; every other write adds the time
    if (!inService) user.putIfAbsent("mtime", io.ferry.store.ObjectMetadata.mtime(a.lastModified().toEpochMilli()));
    assertThat(List.of(String.valueOf(b.contentType()), String.valueOf(b.contentEncoding()), String.valueOf(b.contentDisposition()),
        String.valueOf(b.cacheControl()), new TreeMap<>(b.metadata()).toString()))
        .as("metadata of " + key)
        .containsExactly(String.valueOf(a.contentType()), String.valueOf(a.contentEncoding()), String.valueOf(a.contentDisposition()),
            String.valueOf(a.cacheControl()), user.toString());
  }

  @Test
  void toAnotherProviderEveryObjectIsStreamedAndPartsAreUploadedInParallel() throws Exception {
    providerB.client().createBucket(b -> b.bucket("dst"));
    RunSummary summary;
    RunSummary again;
    String requests;
    try (FaultProxy sniffer = FaultProxy.before(providerB.endpoint())) {
      String hocon = Jobs.hocon(providerA.endpoint(), providerA.identity(), "src", work.resolve("unused"), work.resolve("reports"),
          destination(providerB, sniffer.endpoint(), "dst", "copy/", "ferry.destination.storage-class = STANDARD_IA"));
      summary = migrate(hocon);
      requests = sniffer.requests();
      again = migrate(hocon); // a rerun finds every object at the destination and copies nothing
    }

    assertThat(summary.succeeded()).as(summary.failures().toString()).isTrue();
    assertThat(Buckets.digests(providerB.client(), "dst", "copy/")).isEqualTo(source);
    assertThat(Buckets.openUploads(providerB.client(), "dst")).isZero();
    assertSameMetadata(providerA.client(), "src", providerB.client(), "dst", "copy/", "meta/page.html", false);
    assertSameMetadata(providerA.client(), "src", providerB.client(), "dst", "copy/", "meta/big.bin", false);
    assertThat(providerB.client().headObject(b -> b.bucket("dst").key("copy/meta/page.html")).storageClassAsString())
        .isEqualTo("STANDARD_IA");
    // S3Proxy drops the storage class of multipart objects, so check that the upload asked for it.
    int open = requests.indexOf("POST /dst/copy/meta/big.bin?uploads");
    assertThat(open).as("CreateMultipartUpload was sent").isNotNegative();
    assertThat(requests.substring(open, requests.indexOf("\r\n\r\n", open)).toLowerCase())
        .contains("x-amz-storage-class: standard_ia").contains("content-type: application/x-custom")
        .contains("x-amz-meta-checksum-note: seeded");

    Dataset<Row> ranges = ranges(summary);
    assertThat(ranges.select("method").distinct().collectAsList()).extracting(r -> r.getString(0)).containsExactly("get+upload");
    Row sums = ranges.agg(functions.sum("bytes"), functions.sum("payload_bytes")).first();
    assertThat(sums.getLong(0)).isEqualTo(sourceBytes);
    assertThat(sums.getLong(1)).isEqualTo(sourceBytes);
    // 24 MiB + 3 → 4 parts, 8 MiB + 1 → 2, 11 MiB + 7 → 2 (8 MiB parts); everything else whole
    assertThat(ranges.filter("parts > 1").count()).isEqualTo(8);
    assertThat(ranges.filter("parts > 1 and etag = ''").count()).isZero();

    assertThat(again.objects().skippedUnchanged()).isEqualTo(source.size());
    assertThat(again.objects().copied()).isZero();
  }

  @Test
  void insideOneServiceCopiesStayServerSideWithNoBytesThroughExecutors() throws Exception {
    providerA.client().createBucket(b -> b.bucket("same"));
    // copy-cutoff 0: every object above the part size goes as UploadPartCopy ranges (the default copies it whole)
    RunSummary summary = migrate(Jobs.hocon(providerA.endpoint(), providerA.identity(), "src", work.resolve("unused"),
        work.resolve("reports"), destination(providerA, providerA.endpoint(), "same", "", "") + "\nferry.plan.copy-cutoff = 0"));

    assertThat(summary.succeeded()).isTrue();
    assertThat(summary.bytes().copied()).isEqualTo(sourceBytes);
    assertThat(summary.bytes().throughExecutors()).isZero();
    assertThat(Buckets.digests(providerA.client(), "same", "")).isEqualTo(source);
    assertThat(Buckets.openUploads(providerA.client(), "same")).isZero();
    assertSameMetadata(providerA.client(), "src", providerA.client(), "same", "", "meta/page.html", true);
    // copy-cutoff 0: copied as parts (UploadPartCopy) into an upload opened with the source's metadata and time
    assertSameMetadata(providerA.client(), "src", providerA.client(), "same", "", "meta/big.bin", false);
    Dataset<Row> ranges = ranges(summary);
    assertThat(ranges.filter("method != 'server-side-copy' or payload_bytes != 0").count()).isZero();
    assertThat(ranges.filter("parts > 1").count()).isEqualTo(8);
  }

  @Test
  void filesUploadToABucketWithPositionedReads() throws Exception {
    Path files = work.resolve("upload");
    Map<String, String> expected = new TreeMap<>();
    for (int i = 0; i < 30; i++) {
      byte[] bytes = new byte[(int) (i == 0 ? 10 * MIB + 11 : 1000 + i * 997)];
      new java.util.Random(i).nextBytes(bytes);
      Path file = files.resolve(i % 3 == 0 ? "deep/dir/file-" + i + ".bin" : "file-" + i + ".bin");
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
      expected.put(files.relativize(file).toString(), sha(bytes));
    }
    Files.writeString(files.resolve("notes.txt"), "plain text");
    expected.put("notes.txt", sha("plain text".getBytes(StandardCharsets.UTF_8)));
    providerB.client().createBucket(b -> b.bucket("from-files"));
    RunSummary summary = migrate("""
        ferry {
          job.name = upload
          source { type = file, path = "%s" }
          plan.part-size = 5MiB
          report.path = "%s"
        }
        """.formatted(files, work.resolve("reports")) + destination(providerB, providerB.endpoint(), "from-files", "", ""));
    assertThat(summary.succeeded()).isTrue();
    assertThat(Buckets.digests(providerB.client(), "from-files", "")).isEqualTo(expected);
    assertThat(Buckets.openUploads(providerB.client(), "from-files")).isZero();
    assertThat(ranges(summary).filter("method = 'read+upload'").count()).isEqualTo(3 + 30);
    assertThat(providerB.client().headObject(b -> b.bucket("from-files").key("notes.txt")).contentType()).startsWith("text/plain");
  }

  @Test
  void aCopyThatFailsMidWayLeavesNoObjectAndNoOpenUpload() throws Exception {
    providerB.client().createBucket(b -> b.bucket("flaky"));
    try (FaultProxy proxy = FaultProxy.before(providerB.endpoint())) {
      // every upload dies once 3 MiB have been sent: no 8 MiB part gets through
      proxy.injectAlways(FaultProxy.Kind.UPLOAD_PART, new FaultProxy.Fault.ResetAfterRequestBytes(3 * MIB));
      proxy.injectAlways(FaultProxy.Kind.PUT_OBJECT, new FaultProxy.Fault.ResetAfterRequestBytes(3 * MIB));
      RunSummary summary = migrate(Jobs.hocon(providerA.endpoint(), providerA.identity(), "src", work.resolve("unused"),
          work.resolve("reports"), destination(providerB, proxy.endpoint(), "flaky", "", "ferry.copy.retries = 1")));
      proxy.clear();
      assertThat(summary.succeeded()).isFalse();
      List<String> failed = summary.failures().stream().map(RunSummary.Failure::key).toList();
      assertThat(failed).contains("video/raw footage 2018.bin", "boundary/part-plus-1", "boundary/part", "meta/big.bin");
      Map<String, String> landed = Buckets.digests(providerB.client(), "flaky", "");
      assertThat(landed.keySet()).doesNotContainAnyElementsOf(failed);
      landed.forEach((key, digest) -> assertThat(digest).as(key).isEqualTo(source.get(key)));
      assertThat(landed).containsKey("empty.txt");
      assertThat(Buckets.openUploads(providerB.client(), "flaky")).isZero();
    }
  }

  /** report.path in a bucket (S3A, through Hadoop's filesystem): the datasets, the summary and the job's ledger land there. */
  @Test
  void theReportAndTheLedgerCanLiveInABucket() throws Exception {
    S3Client b = providerB.client();
    if (b.listBuckets().buckets().stream().noneMatch(x -> x.name().equals("reports"))) b.createBucket(r -> r.bucket("reports"));
    b.createBucket(r -> r.bucket("dst-s3a"));
    var hadoop = spark.sparkContext().hadoopConfiguration();
    Map<String, String> s3a = Map.of("fs.s3a.endpoint", providerB.endpoint(), "fs.s3a.endpoint.region", "us-east-1",
        "fs.s3a.path.style.access", "true", "fs.s3a.connection.ssl.enabled", "false", "fs.s3a.access.key", providerB.identity(),
        "fs.s3a.secret.key", providerB.secret(), "fs.s3a.multiobjectdelete.enable", "false",
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    s3a.forEach(hadoop::set);
    try {
      RunSummary summary = migrate(Jobs.hocon(providerA.endpoint(), providerA.identity(), "src", work.resolve("unused"),
          work.resolve("unused-reports"), destination(providerB, providerB.endpoint(), "dst-s3a", "", """
              ferry.source.prefix = "meta/"
              ferry.job.name = s3a-reports
              ferry.report.path = "s3a://reports/runs"
              """)));
      assertThat(summary.succeeded()).isTrue();
      assertThat(summary.reportPath()).startsWith("s3a://reports/runs/s3a-reports/");
      List<String> keys = b.listObjectsV2Paginator(r -> r.bucket("reports").prefix("runs/s3a-reports/")).contents().stream()
          .map(software.amazon.awssdk.services.s3.model.S3Object::key).toList();
      String run = summary.reportPath().substring("s3a://reports/".length());
      assertThat(keys).contains(run + "/summary.json", run + "/report.html", run + "/ranges.parquet/_SUCCESS",
          run + "/objects.csv/_SUCCESS");
      assertThat(spark.read().parquet(summary.reportPath() + "/ranges.parquet").count()).isEqualTo(summary.ranges().total());
      assertThat(Buckets.digests(b, "dst-s3a", "")).containsEntry("page.html", source.get("meta/page.html"));
    } finally {
      s3a.keySet().forEach(hadoop::unset);
    }
  }

  /**
   * The same in local mode as a user starts it (jobs/migrate.sh: the Maven-built classpath, not the tests'): S3A must
   * be on that classpath too. Settings through spark.hadoop.* system properties, keys through the environment.
   */
  @Test
  void jobsMigrateShInLocalModeWritesItsReportToABucket() throws Exception {
    S3Client b = providerB.client();
    if (b.listBuckets().buckets().stream().noneMatch(x -> x.name().equals("reports"))) b.createBucket(r -> r.bucket("reports"));
    b.createBucket(r -> r.bucket("dst-local"));
    Path conf = Jobs.file(work.resolve("conf"), "local-s3a.conf", Jobs.hocon(providerA.endpoint(), providerA.identity(), "src",
        work.resolve("unused"), work.resolve("unused-reports"), """
            ferry.source { prefix = "meta/", credentials.secret-access-key = ${?SRC_SECRET} }
            ferry.destination { type = s3, endpoint = "%s", bucket = dst-local
              credentials { access-key-id = "%s", secret-access-key = ${?DST_SECRET} } }
            ferry.job.name = local-s3a
            ferry.report.path = "s3a://reports/local"
            ferry.spark.master = "local[2]"
            """.formatted(providerB.endpoint(), providerB.identity())));
    Path log = work.resolve("local-s3a.log");
    ProcessBuilder builder = new ProcessBuilder("bash", "jobs/migrate.sh", conf.toString()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    Map<String, String> env = builder.environment();
    env.remove("SPARK_HOME");
    env.put("FERRY_CDS", "0"); // no class-data archive to record for one run
    env.put("FERRY_DRIVER_OPTS", "-Xmx1g -Dspark.ui.enabled=false -Dspark.hadoop.fs.s3a.endpoint=" + providerB.endpoint()
        + " -Dspark.hadoop.fs.s3a.endpoint.region=us-east-1 -Dspark.hadoop.fs.s3a.path.style.access=true"
        + " -Dspark.hadoop.fs.s3a.connection.ssl.enabled=false -Dspark.hadoop.fs.s3a.multiobjectdelete.enable=false");
    env.put("AWS_ACCESS_KEY_ID", providerB.identity()); // S3A's default chain reads these
    env.put("AWS_SECRET_ACCESS_KEY", providerB.secret());
    env.put("SRC_SECRET", providerA.secret());
    env.put("DST_SECRET", providerB.secret());
    Process ferry = builder.start();
    assertThat(ferry.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
    String output = Files.readString(log);
    assertThat(ferry.exitValue()).as(output).isZero();
    assertThat(output).contains("report       s3a://reports/local/local-s3a/").doesNotContain(providerA.secret(), providerB.secret());
    List<String> keys = b.listObjectsV2Paginator(r -> r.bucket("reports").prefix("local/local-s3a/")).contents().stream()
        .map(software.amazon.awssdk.services.s3.model.S3Object::key).toList();
    assertThat(keys).anyMatch(k -> k.endsWith("/summary.json")).anyMatch(k -> k.endsWith("/ranges.parquet/_SUCCESS"));
    assertThat(Buckets.digests(b, "dst-local", "")).containsEntry("page.html", source.get("meta/page.html"));
  }

  @Test
  void aMissingDestinationBucketEndsTheJobBeforeAnyUpload() throws Exception {
    Path conf = Jobs.file(work.resolve("conf"), "missing.conf", Jobs.hocon(providerA.endpoint(), providerA.identity(), "src",
        work.resolve("unused"), work.resolve("reports"), destination(providerB, providerB.endpoint(), "no-such-bucket", "", "")));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Ferry.run(new String[] {"migrate", conf.toString(), "-Dferry.source.credentials.secret-access-key=" + providerA.secret()},
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(Ferry.JOB_FAILED);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("the destination bucket s3://no-such-bucket/").contains("404")
        .doesNotContain(providerB.secret());
    assertThat(Trees.digests(work.resolve("unused"))).isEmpty();
  }

  @Test
  void ibmIamCredentialsSendABearerTokenFromTheTokenEndpoint() throws Exception {
    try (TokenServer iam = new TokenServer("iam-api-key-for-test");
        S3Backend cos = S3Backend.startWithoutAuthentication(work.resolve("cos"));
        FaultProxy sniffer = FaultProxy.before(cos.endpoint())) {
      cos.client().createBucket(b -> b.bucket("iam-dst"));
      RunSummary summary = migrate(Jobs.hocon(providerA.endpoint(), providerA.identity(), "src", work.resolve("unused"),
          work.resolve("reports"), """
              ferry.source.prefix = "meta/"
              ferry.destination {
                type = s3
                endpoint = "%s"
                bucket = iam-dst
                credentials { type = ibm-iam, api-key = "iam-api-key-for-test", token-url = "%s" }
              }
              """.formatted(sniffer.endpoint(), iam.url())));
      assertThat(summary.succeeded()).isTrue();
      assertThat(Buckets.digests(cos.client(), "iam-dst", "")).containsEntry("page.html", source.get("meta/page.html"))
          .containsEntry("big.bin", source.get("meta/big.bin"));
      assertThat(iam.issued()).isPositive();
      assertThat(sniffer.requests()).containsIgnoringCase("authorization: Bearer token-").doesNotContain("AWS4-HMAC-SHA256")
          .doesNotContain("iam-api-key-for-test");
    }
  }

  @Test
  void planIsADryRunThatCountsRequestsByKind() throws Exception {
    providerA.client().createBucket(b -> b.bucket("planned"));
    Path conf = Jobs.file(work.resolve("conf"), "plan.conf", Jobs.hocon(providerA.endpoint(), providerA.identity(), "src",
        work.resolve("unused"), work.resolve("reports"), destination(providerA, providerA.endpoint(), "planned", "", "")));
    // by default every object under plan.copy-cutoff is one CopyObject
    String whole = plan(conf);
    assertThat(whole).contains("objects   " + source.size() + " to copy (0 split into ranges)")
        .contains("method server-side-copy")
        .contains(source.size() + " CopyObject, 0 UploadPartCopy, 0 CreateMultipartUpload + CompleteMultipartUpload");
    // with the cutoff at 0: 3 split objects (8 parts) and every other object whole
    // priced at $1 a request of each class: the destination's writes are its copies, 3 creates, 3 completes and its
    // LIST request (its empty root, by delimiter); the source's bill is its LIST requests and a HEAD per split object
    // (nothing leaves it)
    String split = plan(conf, "-Dferry.plan.copy-cutoff=0", "-Dferry.estimate.source.write-per-1000=1000",
        "-Dferry.estimate.source.read-per-1000=1000", "-Dferry.estimate.destination.write-per-1000=1000", "-Dferry.estimate.mb-per-s=1");
    assertThat(split).contains("objects   " + source.size() + " to copy (3 split into ranges)")
        .contains((source.size() - 3) + " CopyObject, 8 UploadPartCopy, 3 CreateMultipartUpload + CompleteMultipartUpload");
    java.util.regex.Matcher pages =
        java.util.regex.Pattern.compile("source: (\\d+) LIST pages, 3 HEAD; destination: (1) LIST pages").matcher(split);
    assertThat(pages.find()).as(split).isTrue();
    long sourcePages = Long.parseLong(pages.group(1));
    long destinationWrites = (source.size() - 3) + 8 + 3 + 3 + Long.parseLong(pages.group(2));
    assertThat(split).contains(String.format(java.util.Locale.ROOT, "cost      $%.2f: source $%.2f (0 B leaving it), destination $%.2f",
        (double) sourcePages + 3 + destinationWrites, (double) sourcePages + 3, (double) destinationWrites));
    assertThat(split).containsPattern("time      \\d+ (s|min) to copy at 1\\.0 MB/s \\(estimate.mb-per-s\\)");
    assertThat(providerA.client().listObjectsV2(b -> b.bucket("planned")).contents()).isEmpty();
    assertThat(Buckets.openUploads(providerA.client(), "planned")).isZero();
  }

  private String plan(Path conf, String... overrides) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> args = new ArrayList<>(List.of("plan", conf.toString(),
        "-Dferry.source.credentials.secret-access-key=" + providerA.secret()));
    args.addAll(List.of(overrides));
    int code = Ferry.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as(text).isZero();
    return text;
  }
}
