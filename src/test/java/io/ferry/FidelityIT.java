package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.ConfigLoader;
import io.ferry.report.RunSummary;
import io.ferry.spark.run.MigrationJob;
import io.ferry.store.ObjectMetadata;
import io.ferry.support.Buckets;
import io.ferry.support.FaultProxy;
import io.ferry.support.LocalSpark;
import io.ferry.support.S3MockProcess;
import io.ferry.support.SeedData;
import io.ferry.support.StsServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AccessControlPolicy;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.StorageClass;
import software.amazon.awssdk.services.s3.model.Tag;
import software.amazon.awssdk.services.s3.model.Type;

/**
 * What travels around the bytes, on every write path (CopyObject, UploadPartCopy, PutObject, multipart), against
 * Adobe S3Mock, which keeps tags, storage classes and every content header (S3Proxy keeps neither of the first two):
 * system metadata, user metadata, the modification time, tags merged with the destination's, the storage class.
 * S3Mock ignores a CopyObject's tagging directive (it always copies the source's tags), so the tags of an object
 * copied whole inside the service are checked on the wire, in the request a proxy saw.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FidelityIT {
  private static final long MIB = 1L << 20;
  private static final String EXPIRES = "Wed, 21 Oct 2026 07:28:00 GMT";
  @TempDir static Path work;
  private S3MockProcess s3;
  private S3Client client;
  private SparkSession spark;
  private final Map<String, String> digests = new TreeMap<>();

  @BeforeAll
  void start() throws Exception {
    s3 = S3MockProcess.start(work.resolve("s3mock"));
    client = s3.client();
    spark = LocalSpark.start("FidelityIT");
    client.createBucket(b -> b.bucket("fidelity-src"));
    byte[] page = "<html>bonjour</html>".getBytes(StandardCharsets.UTF_8);
    client.putObject(b -> b.bucket("fidelity-src").key("site/page.html").contentType("text/html; charset=utf-8")
        .contentEncoding("identity").contentDisposition("inline").cacheControl("max-age=60").contentLanguage("fr")
        .expires(Instant.parse("2026-10-21T07:28:00Z")).metadata(Map.of("owner", "media-team"))
        .tagging("team=media&year=2018").storageClass(StorageClass.STANDARD_IA), RequestBody.fromBytes(page));
    digests.put("site/page.html", sha(page));
    byte[] plain = bytes(1000, 1);
    client.putObject(b -> b.bucket("fidelity-src").key("plain.bin"), RequestBody.fromBytes(plain));
    digests.put("plain.bin", sha(plain));
    byte[] synced = "written by rclone".getBytes(StandardCharsets.UTF_8);
    client.putObject(b -> b.bucket("fidelity-src").key("rclone.txt").metadata(Map.of("mtime", "1500000000.250000000")),
        RequestBody.fromBytes(synced));
    digests.put("rclone.txt", sha(synced));
    // 12 MiB + 5 in two source parts: copied in 5 MiB parts, so its destination upload is opened with its metadata
    byte[] big = bytes((int) (12 * MIB + 5), 2);
    String id = client.createMultipartUpload(b -> b.bucket("fidelity-src").key("video/big.bin").contentType("video/mp4")
        .contentLanguage("de").cacheControl("no-cache").metadata(Map.of("note", "seeded")).tagging("team=video")
        .storageClass(StorageClass.STANDARD_IA)).uploadId();
    int half = (int) (6 * MIB);
    String e1 = client.uploadPart(b -> b.bucket("fidelity-src").key("video/big.bin").uploadId(id).partNumber(1),
        RequestBody.fromBytes(java.util.Arrays.copyOfRange(big, 0, half))).eTag();
    String e2 = client.uploadPart(b -> b.bucket("fidelity-src").key("video/big.bin").uploadId(id).partNumber(2),
        RequestBody.fromBytes(java.util.Arrays.copyOfRange(big, half, big.length))).eTag();
    client.completeMultipartUpload(b -> b.bucket("fidelity-src").key("video/big.bin").uploadId(id).multipartUpload(
        CompletedMultipartUpload.builder().parts(CompletedPart.builder().partNumber(1).eTag(e1).build(),
            CompletedPart.builder().partNumber(2).eTag(e2).build()).build()));
    digests.put("video/big.bin", sha(big));
  }

  @AfterAll
  void stop() {
    if (spark != null) spark.stop();
    if (s3 != null) s3.close();
  }

  /**
   * Every path, with the destination's tags merged over the source's and the storage class kept: in the service
   * (CopyObject for the small objects, UploadPartCopy for the large one) and streamed (PutObject, multipart).
   */
  @ParameterizedTest(name = "server-side-copy = {0}")
  @CsvSource({"always", "never"})
  void metadataTagsTimesAndStorageClassesArriveOnEveryPath(String serverSide) throws Exception {
    String bucket = "fidelity-" + serverSide;
    client.createBucket(b -> b.bucket(bucket));
    RunSummary summary;
    String requests;
    try (FaultProxy sniffer = FaultProxy.before(s3.endpoint())) {
      summary = migrate(bucket, sniffer.endpoint(), """
          ferry.destination { storage-class = keep, tags { migrated-by = ferry, team = ops } }
          ferry.destination.server-side-copy = %s
          """.formatted(serverSide));
      requests = sniffer.requests();
    }

    assertThat(summary.succeeded()).as(summary.failures().toString()).isTrue();
    assertThat(Buckets.digests(client, bucket, "")).isEqualTo(digests);
    assertThat(Buckets.openUploads(client, bucket)).isZero();
    boolean inService = serverSide.equals("always");
    for (String key : digests.keySet()) {
      HeadObjectResponse from = head("fidelity-src", key);
      HeadObjectResponse to = head(bucket, key);
      assertThat(systemHeaders(to)).as(key).isEqualTo(systemHeaders(from));
      assertThat(to.storageClassAsString()).as(key).isEqualTo(from.storageClassAsString());
      Map<String, String> tags = new TreeMap<>(tags("fidelity-src", key));
      tags.putAll(Map.of("migrated-by", "ferry", "team", "ops"));
      boolean copiedWhole = inService && !key.equals("video/big.bin"); // one CopyObject keeps the source's metadata as it is
      if (copiedWhole) {
        String sent = request(requests, bucket, key);
        assertThat(sent).as(key).contains("x-amz-tagging-directive: REPLACE").contains("x-amz-tagging: " + tagging(tags));
        // the class read from the source with a HEAD, sent (a CopyObject would land in STANDARD without it)
        if (from.storageClassAsString() != null) assertThat(sent).contains("x-amz-storage-class: " + from.storageClassAsString());
      } else {
        assertThat(tags(bucket, key)).as(key).isEqualTo(tags);
      }
      Map<String, String> user = new TreeMap<>(from.metadata());
      if (!copiedWhole) user.putIfAbsent("mtime", ObjectMetadata.mtime(listedMillis(key)));
      assertThat(new TreeMap<>(to.metadata())).as(key).isEqualTo(user);
    }
    assertThat(head(bucket, "rclone.txt").metadata()).containsEntry("mtime", "1500000000.250000000");
    assertThat(head(bucket, "site/page.html").expiresString()).isEqualTo(EXPIRES);
  }

  /**
   * acl = copy: each object's grants, read with GetObjectAcl, are the grant headers of the write that makes its copy
   * (PutObject, CreateMultipartUpload, CopyObject), so no copy stands at its name with other grants. S3Mock keeps an
   * ACL set with PutObjectAcl but ignores a write's grant headers, so the requests are what is checked.
   */
  @ParameterizedTest(name = "server-side-copy = {0}")
  @CsvSource({"always", "never"})
  void theSourcesAclTravelsAsTheGrantHeadersOfTheWriteOnEveryPath(String serverSide) throws Exception {
    for (String key : List.of("site/page.html", "video/big.bin")) {
      String owner = client.getObjectAcl(b -> b.bucket("fidelity-src").key(key)).owner().id();
      client.putObjectAcl(b -> b.bucket("fidelity-src").key(key).accessControlPolicy(AccessControlPolicy.builder()
          .owner(o -> o.id(owner)).grants(
              Grant.builder().grantee(g -> g.type(Type.CANONICAL_USER).id(owner)).permission(Permission.FULL_CONTROL).build(),
              Grant.builder().grantee(g -> g.type(Type.CANONICAL_USER).id("reader-1")).permission(Permission.READ).build(),
              Grant.builder().grantee(g -> g.type(Type.GROUP).uri("http://acs.amazonaws.com/groups/global/AllUsers"))
                  .permission(Permission.READ).build()).build()));
    }
    String bucket = "acl-copy-" + serverSide;
    client.createBucket(b -> b.bucket(bucket));
    RunSummary summary;
    String requests;
    try (FaultProxy sniffer = FaultProxy.before(s3.endpoint())) {
      summary = migrate(bucket, sniffer.endpoint(), "ferry.destination { acl = copy, server-side-copy = %s }".formatted(serverSide));
      requests = sniffer.requests();
    }
    assertThat(summary.succeeded()).as(summary.failures().toString()).isTrue();
    assertThat(Buckets.digests(client, bucket, "")).isEqualTo(digests);
    String owner = client.getObjectAcl(b -> b.bucket("fidelity-src").key("plain.bin")).owner().id();
    for (String key : digests.keySet()) {
      String sent = key.equals("video/big.bin") ? request(requests, "POST", bucket, key + "?uploads") : request(requests, "PUT", bucket,
          key);
      assertThat(sent).as(key).contains("x-amz-grant-full-control: id=\"" + owner + "\"").doesNotContain("x-amz-acl:");
      boolean granted = key.equals("site/page.html") || key.equals("video/big.bin");
      if (granted) {
        assertThat(sent).as(key).contains("x-amz-grant-read: id=\"reader-1\", uri=\"http://acs.amazonaws.com/groups/global/AllUsers\"");
      } else {
        assertThat(sent).as(key).doesNotContain("x-amz-grant-read:");
      }
    }
  }

  /** copy-tags = false: only the destination's tags, or none, on every path; a CopyObject replaces the source's. */
  @ParameterizedTest(name = "server-side-copy = {0}")
  @CsvSource({"always, '', ''", "never, '', ''", "always, 'tags { migrated-by = ferry }', 'migrated-by=ferry'"})
  void withoutCopyTagsTheSourcesTagsStayBehind(String serverSide, String tags, String expected) throws Exception {
    String bucket = "no-tags-" + serverSide + (tags.isEmpty() ? "" : "-merged");
    client.createBucket(b -> b.bucket(bucket));
    RunSummary summary;
    String requests;
    try (FaultProxy sniffer = FaultProxy.before(s3.endpoint())) {
      summary = migrate(bucket, sniffer.endpoint(), "ferry.destination { copy-tags = false, server-side-copy = %s, %s }"
          .formatted(serverSide, tags));
      requests = sniffer.requests();
    }

    assertThat(summary.succeeded()).as(summary.failures().toString()).isTrue();
    Map<String, String> want = new TreeMap<>();
    if (!expected.isEmpty()) want.put(expected.split("=")[0], expected.split("=")[1]);
    for (String key : digests.keySet()) {
      if (serverSide.equals("always") && !key.equals("video/big.bin")) {
        String sent = request(requests, bucket, key);
        assertThat(sent).as(key).contains("x-amz-tagging-directive: REPLACE");
        if (want.isEmpty()) assertThat(sent).as(key).doesNotContain("x-amz-tagging:");
        else assertThat(sent).as(key).contains("x-amz-tagging: " + tagging(want));
      } else {
        assertThat(tags(bucket, key)).as(key).isEqualTo(want);
      }
    }
  }

  @Test
  void filesCarryTheirTimeModeAndOwnerAsRcloneNamesThem() throws Exception {
    Path dir = Files.createDirectories(work.resolve("files"));
    Path file = Files.writeString(dir.resolve("notes.txt"), "field notes");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    Files.setLastModifiedTime(file, FileTime.fromMillis(1_450_000_000_125L));
    client.createBucket(b -> b.bucket("from-files"));
    var config = ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString("""
        ferry {
          job.name = files-fidelity
          source { type = file, path = "%s" }
          destination { type = s3, endpoint = "%s", bucket = from-files, credentials.access-key-id = any }
          report.path = "%s"
        }
        """.formatted(dir, s3.endpoint(), work.resolve("reports"))), Map.of("ferry.destination.credentials.secret-access-key", "any"));
    RunSummary summary = run(config);

    assertThat(summary.succeeded()).as(summary.failures().toString()).isTrue();
    Map<String, Object> unix = Files.readAttributes(file, "unix:uid,gid");
    assertThat(head("from-files", "notes.txt").metadata()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "mtime", "1450000000.125000000", "mode", "100640", "uid", unix.get("uid").toString(), "gid", unix.get("gid").toString()));
  }

  /**
   * destination.acl: the canned ACL goes with every request that makes an object, whichever path wrote it. S3Mock keeps
   * only ACLs set by PutObjectAcl (its GetObjectAcl shows the owner's alone after a write with x-amz-acl), so the ACL
   * is checked on the wire: each PUT of a whole object, each CreateMultipartUpload, each CopyObject.
   */
  @ParameterizedTest(name = "server-side-copy = {0}")
  @CsvSource({"always", "never"})
  void aCannedAclGoesWithEveryRequestThatMakesAnObjectOnEveryPath(String serverSide) throws Exception {
    String bucket = "acl-" + serverSide;
    client.createBucket(b -> b.bucket(bucket));
    RunSummary summary;
    String requests;
    try (FaultProxy sniffer = FaultProxy.before(s3.endpoint())) {
      summary = migrate(bucket, sniffer.endpoint(), """
          ferry.source.endpoint = "%s"
          ferry.destination { acl = bucket-owner-full-control, server-side-copy = %s }
          """.formatted(sniffer.endpoint(), serverSide));
      requests = sniffer.requests();
    }
    assertThat(summary.succeeded()).as(summary.failures().toString()).isTrue();
    assertThat(Buckets.digests(client, bucket, "")).isEqualTo(digests);
    List<String> makes = java.util.Arrays.stream(requests.split("\r\n\r\n"))
        .filter(h -> h.startsWith("PUT /" + bucket + "/") && !h.contains("partNumber=") || h.startsWith("POST /" + bucket + "/")
            && h.matches("(?s)[^\r\n]*\\?uploads[ =&].*"))
        .toList();
    assertThat(makes).as("requests that make an object").hasSizeGreaterThanOrEqualTo(digests.size());
    assertThat(makes).allSatisfy(h -> assertThat(h.toLowerCase(java.util.Locale.ROOT)).contains("x-amz-acl: bucket-owner-full-control"));
    assertThat(java.util.Arrays.stream(requests.split("\r\n\r\n")).filter(h -> h.contains("partNumber=")))
        .as("parts take the ACL of their upload").allSatisfy(h -> assertThat(h.toLowerCase(java.util.Locale.ROOT))
            .doesNotContain("x-amz-acl"));
  }

  /**
   * Object Lock, into a bucket that has it (S3Mock's, which accepts the headers but keeps no retention from them, so
   * they are checked on the wire): each object's retention and legal hold, as its source's answers show them (the
   * proxy adds AWS's headers to S3Mock's answers), go with the write that makes it (PutObject, CreateMultipartUpload,
   * CopyObject: a copy does not keep them by itself), a retention already ended does not (S3 refuses a date past), and
   * every upload carries the checksum such a bucket requires (the CRC32 trailer, with checksum-mode = when-required).
   * Into a bucket without Object Lock, none goes.
   */
  @ParameterizedTest(name = "server-side-copy = {0}")
  @CsvSource({"always", "never"})
  void objectLockTravelsIntoABucketWithObjectLockWithTheChecksumItRequires(String serverSide) throws Exception {
    String locked = "locked-" + serverSide;
    String plain = "unlocked-" + serverSide;
    client.createBucket(b -> b.bucket(locked).objectLockEnabledForBucket(true));
    client.createBucket(b -> b.bucket(plain));
    Map<String, String> retained = Map.of("x-amz-object-lock-mode", "GOVERNANCE", "x-amz-object-lock-retain-until-date",
        "2099-01-01T00:00:00Z", "x-amz-object-lock-legal-hold", "ON");
    Map<String, String> ended = Map.of("x-amz-object-lock-mode", "COMPLIANCE", "x-amz-object-lock-retain-until-date",
        "2001-01-01T00:00:00Z");
    FaultProxy.Decider sourceLock = (kind, target, headers) -> {
      if (kind != FaultProxy.Kind.GET_OBJECT && kind != FaultProxy.Kind.HEAD_OBJECT || !target.startsWith("/fidelity-src/")) return null;
      return new FaultProxy.Fault.AddHeaders(target.contains("rclone.txt") ? ended : retained);
    };
    for (String bucket : List.of(locked, plain)) {
      String requests;
      RunSummary summary;
      try (FaultProxy proxy = FaultProxy.before(s3.endpoint())) {
        proxy.decide(sourceLock);
        summary = migrate(bucket, proxy.endpoint(), """
            ferry.source.endpoint = "%s"
            ferry.destination.server-side-copy = %s
            """.formatted(proxy.endpoint(), serverSide));
        requests = proxy.requests();
      }
      assertThat(summary.succeeded()).as(summary.failures().toString()).isTrue();
      assertThat(Buckets.digests(client, bucket, "")).isEqualTo(digests);
      List<String> heads = java.util.Arrays.stream(requests.split("\r\n\r\n")).map(h -> h.toLowerCase(java.util.Locale.ROOT))
          .toList();
      List<String> makes = heads.stream().filter(h -> h.startsWith("put /" + bucket + "/") && !h.contains("partnumber=")
          || h.startsWith("post /" + bucket + "/") && h.matches("(?s)[^\r\n]*\\?uploads[ =&].*")).toList();
      assertThat(makes).as("requests that make an object").hasSizeGreaterThanOrEqualTo(digests.size());
      if (bucket.equals(plain)) {
        assertThat(makes).allSatisfy(h -> assertThat(h).doesNotContain("x-amz-object-lock"));
        continue;
      }
      for (String key : digests.keySet()) {
        String made = makes.stream().filter(h -> h.matches("(?s)^(put|post) /" + bucket + "/" + key + "[ ?].*")).findFirst().orElseThrow();
        if (key.equals("rclone.txt")) {
          assertThat(made).as(key).doesNotContain("x-amz-object-lock-mode").doesNotContain("x-amz-object-lock-retain-until-date");
        } else {
          assertThat(made).as(key).contains("x-amz-object-lock-mode: governance")
              .contains("x-amz-object-lock-retain-until-date: 2099-01-01t00:00:00z").contains("x-amz-object-lock-legal-hold: on");
        }
      }
      List<String> uploads = heads.stream().filter(h -> h.startsWith("put /" + bucket + "/") && !h.contains("x-amz-copy-source:"))
          .toList();
      if (serverSide.equals("never")) assertThat(uploads).as("uploads").isNotEmpty();
      assertThat(uploads).allSatisfy(h -> assertThat(h).contains("x-amz-trailer: x-amz-checksum-crc32"));
    }
  }

  /**
   * A writer that may not ask whether the bucket has Object Lock (403 to GetObjectLockConfiguration, as a writer of
   * another account often gets) writes as it did before Ferry asked: every object copied, no lock headers sent.
   */
  @Test
  void aDestinationThatMayNotBeAskedAboutObjectLockIsWrittenAsBefore() throws Exception {
    String bucket = "lock-unknown";
    client.createBucket(b -> b.bucket(bucket));
    RunSummary summary;
    String requests;
    try (FaultProxy proxy = FaultProxy.before(s3.endpoint())) {
      proxy.inject(FaultProxy.Kind.LIST_OBJECTS, "?object-lock", new FaultProxy.Fault.Status(403, "AccessDenied"), -1);
      summary = migrate(bucket, proxy.endpoint(), "ferry.destination.server-side-copy = never");
      requests = proxy.requests();
      assertThat(proxy.injected(FaultProxy.Fault.Status.class)).as("asked, and refused").isPositive();
    }
    assertThat(summary.succeeded()).as(summary.failures().toString()).isTrue();
    assertThat(Buckets.digests(client, bucket, "")).isEqualTo(digests);
    assertThat(requests.toLowerCase(java.util.Locale.ROOT)).doesNotContain("x-amz-object-lock");
  }

  /**
   * source.requester-pays: every request that reads the source says the requester pays, the SDK client's (listing,
   * HEAD, tags) and Ferry's own (ranged GETs), and so do the copies inside the service, which read it too.
   */
  @ParameterizedTest(name = "server-side-copy = {0}")
  @CsvSource({"always", "never"})
  void aRequesterPaysSourceIsAskedWithThePayerHeaderOnEveryRequestThatReadsIt(String serverSide) throws Exception {
    String bucket = "requester-pays-" + serverSide;
    client.createBucket(b -> b.bucket(bucket));
    String requests;
    RunSummary summary;
    try (FaultProxy sniffer = FaultProxy.before(s3.endpoint())) {
      // both sides through the proxy: one service, so server-side-copy = always copies inside it
      summary = migrate(bucket, sniffer.endpoint(), """
          ferry.source { endpoint = "%s", requester-pays = true }
          ferry.destination.server-side-copy = %s
          """.formatted(sniffer.endpoint(), serverSide));
      requests = sniffer.requests();
    }
    assertThat(summary.succeeded()).as(summary.failures().toString()).isTrue();
    assertThat(Buckets.digests(client, bucket, "")).isEqualTo(digests);
    List<String> reads = java.util.Arrays.stream(requests.split("\r\n\r\n"))
        .filter(h -> h.matches("(?s)^(GET|HEAD) /fidelity-src[/?].*")
            || h.toLowerCase(java.util.Locale.ROOT).contains("x-amz-copy-source:"))
        .toList();
    assertThat(reads).as("requests that read the source").hasSizeGreaterThan(digests.size());
    assertThat(reads).allSatisfy(h -> assertThat(h.toLowerCase(java.util.Locale.ROOT)).contains("x-amz-request-payer: requester"));
  }

  /**
   * credentials.type = assume-role: the role is assumed at a local STS as the configured keys (with the external id
   * and duration asked for), every request to the destination is signed with the role's temporary keys and carries
   * their session token, the keys are refreshed once they near their expiry (the second run finds the first keys a
   * few seconds from it), and neither the caller's secret, the external id nor a temporary secret shows anywhere.
   */
  @Test
  void anAssumedRolesTemporaryKeysSignEveryRequestAreRefreshedBeforeTheyExpireAndShowNowhere() throws Exception {
    client.createBucket(b -> b.bucket("as-role"));
    List<String> heads = new java.util.ArrayList<>();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunSummary last = null;
    try (StsServer sts = new StsServer("AKIACALLER"); FaultProxy sniffer = FaultProxy.before(s3.endpoint())) {
      // the SDK refreshes in the background 5 minutes before expiry and blocks 1 minute before: keys lasting 63 s are
      // refreshed by the first request 3 s after they were issued
      sts.lasting(java.time.Duration.ofSeconds(63));
      var config = ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString("""
          ferry {
            job.name = assume-role
            source { endpoint = "%1$s", bucket = fidelity-src, credentials.access-key-id = any }
            destination {
              type = s3, endpoint = "%2$s", bucket = as-role
              credentials {
                type = assume-role, access-key-id = AKIACALLER, role-arn = "arn:aws:iam::123456789012:role/migration"
                session-name = ferry-test, duration = 15m, sts-endpoint = "%3$s"
              }
            }
            report.path = "%4$s"
            plan.part-size = 5MiB
            copy.skip-unchanged = false
          }
          """.formatted(s3.endpoint(), sniffer.endpoint(), sts.url(), work.resolve("reports"))), Map.of(
          "ferry.source.credentials.secret-access-key", "any", "ferry.destination.credentials.secret-access-key", "caller-secret",
          "ferry.destination.credentials.external-id", "external-id-value"));
      for (int run = 0; run < 2; run++) {
        if (run == 1) Thread.sleep(4_000);
        last = MigrationJob.run(config, JavaSparkContext.fromSparkContext(spark.sparkContext()),
            new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(last.succeeded()).as(last.failures().toString()).isTrue();
      }
      heads.addAll(java.util.Arrays.stream(sniffer.requests().split("\r\n\r\n"))
          .filter(h -> h.matches("(?s)^(GET|PUT|POST|HEAD|DELETE) .*")).toList());
      assertThat(sts.issued()).as("keys issued: once, then refreshed").isGreaterThanOrEqualTo(2);
      assertThat(sts.forms().get(0)).containsEntry("Action", "AssumeRole")
          .containsEntry("RoleArn", "arn:aws:iam::123456789012:role/migration")
          .containsEntry("RoleSessionName", "ferry-test").containsEntry("DurationSeconds", "900")
          .containsEntry("ExternalId", "external-id-value");
    }
    assertThat(Buckets.digests(client, "as-role", "")).isEqualTo(digests);
    assertThat(heads).isNotEmpty().allSatisfy(h -> assertThat(h).containsPattern("Credential=ASIATEMP\\d+/")
        .containsPattern("(?i)x-amz-security-token: session-token-\\d+"));
    assertThat(heads.stream().map(h -> h.replaceAll("(?s).*Credential=(ASIATEMP\\d+)/.*", "$1")).distinct().count())
        .as("requests signed with the refreshed keys too").isGreaterThanOrEqualTo(2);
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(printed).doesNotContain("caller-secret").doesNotContain("external-id-value").doesNotContain(StsServer.SECRET_PREFIX);
    try (var files = Files.walk(Path.of(last.reportPath()))) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        assertThat(Files.readString(p, StandardCharsets.ISO_8859_1)).as(p.toString()).doesNotContain("caller-secret")
            .doesNotContain("external-id-value").doesNotContain(StsServer.SECRET_PREFIX);
      }
    }
  }

  /**
   * Temporary keys (STS): their session token goes signed with every request, the SDK client's and Ferry's own, and
   * nowhere else (S3Mock ignores it; S3Proxy refuses any request that has one, 501).
   */
  @Test
  void temporaryKeysSendTheirSessionTokenWithEveryRequestAndShowItNowhere() throws Exception {
    client.createBucket(b -> b.bucket("with-token"));
    String token = "session-" + java.util.UUID.randomUUID();
    RunSummary summary;
    String requests;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (FaultProxy sniffer = FaultProxy.before(s3.endpoint())) {
      var config = ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString("""
          ferry {
            job.name = session-token
            source { endpoint = "%1$s", bucket = fidelity-src, credentials.access-key-id = any }
            destination { type = s3, endpoint = "%2$s", bucket = with-token, credentials.access-key-id = ASIATEMPORARY }
            report.path = "%3$s"
            plan.part-size = 5MiB
          }
          """.formatted(s3.endpoint(), sniffer.endpoint(), work.resolve("reports"))), Map.of(
          "ferry.source.credentials.secret-access-key", "any", "ferry.destination.credentials.secret-access-key", "temporary-secret",
          "ferry.destination.credentials.session-token", token));
      summary = MigrationJob.run(config, JavaSparkContext.fromSparkContext(spark.sparkContext()),
          new PrintStream(out, true, StandardCharsets.UTF_8));
      requests = sniffer.requests();
    }

    assertThat(summary.succeeded()).as(summary.failures().toString()).isTrue();
    assertThat(Buckets.digests(client, "with-token", "")).isEqualTo(digests);
    String[] heads = requests.split("\r\n\r\n");
    long sent = java.util.Arrays.stream(heads).filter(h -> h.matches("(?s)^(GET|PUT|POST|HEAD|DELETE) .*")).count();
    assertThat(sent).as("requests to the destination").isGreaterThan(digests.size());
    assertThat(java.util.Arrays.stream(heads).filter(h -> h.matches("(?s)^(GET|PUT|POST|HEAD|DELETE) .*")))
        .allSatisfy(h -> assertThat(h.toLowerCase(java.util.Locale.ROOT)).contains("x-amz-security-token: " + token));
    assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain(token).doesNotContain("temporary-secret");
    try (var files = Files.walk(Path.of(summary.reportPath()))) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        assertThat(Files.readString(p, StandardCharsets.ISO_8859_1)).as(p.toString()).doesNotContain(token);
      }
    }
  }

  /**
   * A directory's symbolic links: reported by default (rows, a count, exit 0; the cut-over deletes nothing, since a link
   * may stand for files the destination holds), and with follow a link to a file arrives as that file.
   */
  @Test
  void symbolicLinksAreReportedRowByRowOrFollowedToTheirFiles() throws Exception {
    Path dir = Files.createDirectories(work.resolve("linked/sub"));
    Files.writeString(dir.resolveSibling("a.txt"), "alpha");
    Files.writeString(dir.resolve("b.txt"), "beta");
    Files.createSymbolicLink(dir.resolveSibling("to-file"), Path.of("a.txt"));
    Files.createSymbolicLink(dir.resolveSibling("to-dir"), Path.of("sub"));
    Files.createSymbolicLink(dir.resolveSibling("dangling"), Path.of("nowhere"));
    Path reported = Files.createDirectories(work.resolve("links-reported/to-dir"));
    Files.writeString(reported.resolve("b.txt"), "beta, copied by another tool through the link");

    RunSummary first = run(directoryJob(dir.getParent(), reported.getParent(), "report", "destination.delete-extraneous = true"));
    assertThat(first.succeeded()).as(first.failures().toString()).isTrue();
    assertThat(first.objects().notCopied()).isEqualTo(3);
    assertThat(first.objects().copied()).isEqualTo(2);
    assertThat(Files.readString(reported.resolve("b.txt"))).as("kept: the link stands for it").startsWith("beta, copied");
    assertThat(Files.exists(reported.resolveSibling("to-file"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
    var rows = spark.read().parquet(first.reportPath() + "/objects.parquet").filter("status = 'NOT_COPIED'")
        .select("key", "error").collectAsList();
    assertThat(rows).extracting(r -> r.getString(0)).containsExactlyInAnyOrder("to-file", "to-dir", "dangling");
    assertThat(rows).extracting(r -> r.getString(1)).anySatisfy(e -> assertThat(e).contains("'nowhere'"));

    Path followed = work.resolve("links-followed");
    RunSummary second = run(directoryJob(dir.getParent(), followed, "follow", ""));
    assertThat(second.succeeded()).as(second.failures().toString()).isTrue();
    assertThat(second.objects().notCopied()).isEqualTo(2);
    assertThat(Files.isSymbolicLink(followed.resolve("to-file"))).isFalse();
    assertThat(Files.readString(followed.resolve("to-file"))).isEqualTo("alpha");
    assertThat(Files.readString(followed.resolve("sub/b.txt"))).isEqualTo("beta");
  }

  /**
   * {@code symlinks = copy}: into a directory each link is made again, with its target and time (a link only the
   * destination holds goes with the cut-over, a rerun skips those it holds, verify compares them); into a bucket each
   * is an object {@code name.rclonelink} holding its target, as rclone keeps them, which the cut-over keeps.
   */
  @Test
  void symbolicLinksCopiedAreLinksInADirectoryAndRcloneLinkObjectsInABucket() throws Exception {
    Path dir = Files.createDirectories(work.resolve("copied-links/source/sub"));
    Path from = dir.getParent();
    Files.writeString(from.resolve("a.txt"), "alpha");
    Files.writeString(dir.resolve("b.txt"), "beta");
    Map<String, String> links = Map.of("to-file", "a.txt", "sub/to-dir", "..", "dangling", "nowhere/ü");
    for (var e : links.entrySet()) {
      Path link = Files.createSymbolicLink(from.resolve(e.getKey()), Path.of(e.getValue()));
      Files.getFileAttributeView(link, java.nio.file.attribute.BasicFileAttributeView.class, java.nio.file.LinkOption.NOFOLLOW_LINKS)
          .setTimes(java.nio.file.attribute.FileTime.fromMillis(1_500_000_000_250L), null, null);
    }
    Path to = Files.createDirectories(work.resolve("copied-links/destination"));
    Files.createSymbolicLink(to.resolve("stale-link"), Path.of("elsewhere"));
    String cutOver = "job.name = links-copied\nferry.destination.delete-extraneous = true";

    RunSummary first = run(directoryJob(from, to, "copy", cutOver));
    assertThat(first.succeeded()).as(first.failures().toString()).isTrue();
    assertThat(first.objects().copied()).isEqualTo(5);
    assertThat(first.objects().notCopied()).isZero();
    assertThat(first.deletions().deleted()).as("a link only the destination holds").isEqualTo(1);
    assertThat(Files.exists(to.resolve("stale-link"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
    for (var e : links.entrySet()) {
      Path link = to.resolve(e.getKey());
      assertThat(Files.isSymbolicLink(link)).as(e.getKey()).isTrue();
      assertThat(Files.readSymbolicLink(link)).as(e.getKey()).isEqualTo(Path.of(e.getValue()));
      assertThat(Files.getLastModifiedTime(link, java.nio.file.LinkOption.NOFOLLOW_LINKS).toMillis()).isEqualTo(1_500_000_000_250L);
    }
    assertThat(Files.readString(to.resolve("to-file"))).isEqualTo("alpha");
    assertThat(Files.readString(to.resolve("sub/to-dir/sub/b.txt"))).isEqualTo("beta");

    RunSummary again = run(directoryJob(from, to, "copy", cutOver));
    assertThat(again.objects().copied()).isZero();
    assertThat(again.objects().skippedUnchanged()).isEqualTo(5);
    Files.delete(from.resolve("dangling"));
    Files.createSymbolicLink(from.resolve("dangling"), Path.of("somewhere-else"));
    RunSummary changed = run(directoryJob(from, to, "copy", cutOver));
    assertThat(changed.objects().copied()).isEqualTo(1);
    assertThat(Files.readSymbolicLink(to.resolve("dangling"))).isEqualTo(Path.of("somewhere-else"));
    Path conf = Files.writeString(work.resolve("copied-links/verify.conf"), """
        ferry {
          job.name = links-copied
          source { type = file, path = "%s", symlinks = copy }
          destination.path = "%s"
          report.path = "%s"
        }
        """.formatted(from, to, work.resolve("reports")));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    assertThat(io.ferry.Ferry.run(new String[] {"verify", conf.toString()}, print, print)).as(out.toString(StandardCharsets.UTF_8))
        .isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).containsPattern("match +5");

    client.createBucket(b -> b.bucket("copied-links"));
    client.putObject(b -> b.bucket("copied-links").key("only-here.txt"), RequestBody.fromString("extraneous"));
    var toBucket = ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString("""
        ferry {
          job.name = links-to-bucket
          source { type = file, path = "%s", symlinks = copy }
          destination { type = s3, endpoint = "%s", bucket = copied-links, credentials.access-key-id = any, delete-extraneous = true }
          report.path = "%s"
        }
        """.formatted(from, s3.endpoint(), work.resolve("reports"))), Map.of("ferry.destination.credentials.secret-access-key", "any"));
    for (int round = 0; round < 2; round++) {
      RunSummary bucket = run(toBucket);
      assertThat(bucket.succeeded()).as(bucket.failures().toString()).isTrue();
      assertThat(bucket.objects().copied()).as("round " + round).isEqualTo(round == 0 ? 5 : 0);
      assertThat(bucket.deletions() == null ? 0 : bucket.deletions().deleted()).as("round " + round).isEqualTo(round == 0 ? 1 : 0);
    }
    Map<String, String> held = new TreeMap<>();
    client.listObjectsV2Paginator(b -> b.bucket("copied-links")).contents().forEach(o -> held.put(o.key(),
        client.getObjectAsBytes(b -> b.bucket("copied-links").key(o.key())).asUtf8String()));
    assertThat(held).containsExactlyInAnyOrderEntriesOf(Map.of("a.txt", "alpha", "sub/b.txt", "beta", "to-file.rclonelink", "a.txt",
        "sub/to-dir.rclonelink", "..", "dangling.rclonelink", "somewhere-else"));
  }

  /**
   * A directory's round trip through a bucket, as rclone users make it (issue 45): files, links and empty folders
   * come back with their times from the objects' mtime metadata (a bucket sets its own times), links come back links
   * from name.rclonelink with source.symlinks = copy (never followed: the target is written as it is), and a rerun
   * finds them all unchanged by the time they were given.
   */
  @Test
  void aDirectoryThroughABucketAndBackKeepsTimesLinksAndFolders() throws Exception {
    Path from = Files.createDirectories(work.resolve("round-trip/source/sub"));
    from = from.getParent();
    Files.writeString(from.resolve("a.txt"), "alpha");
    Files.writeString(from.resolve("sub/b.txt"), "beta");
    Files.createDirectories(from.resolve("empty"));
    Files.createSymbolicLink(from.resolve("to-a"), Path.of("a.txt"));
    Files.createSymbolicLink(from.resolve("sub/out"), Path.of("../../../elsewhere/ü"));
    Map<String, Long> times = Map.of("a.txt", 1_400_000_000_250L, "sub/b.txt", 1_400_000_100_000L, "empty", 1_400_000_200_000L,
        "to-a", 1_400_000_300_500L, "sub/out", 1_400_000_400_000L);
    for (var e : times.entrySet()) {
      Files.getFileAttributeView(from.resolve(e.getKey()), java.nio.file.attribute.BasicFileAttributeView.class,
          java.nio.file.LinkOption.NOFOLLOW_LINKS).setTimes(java.nio.file.attribute.FileTime.fromMillis(e.getValue()), null, null);
    }
    client.createBucket(b -> b.bucket("round-trip"));
    var toBucket = ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString("""
        ferry {
          job.name = round-trip-out
          source { type = file, path = "%s", symlinks = copy, empty-directories = copy }
          destination { type = s3, endpoint = "%s", bucket = round-trip, credentials.access-key-id = any }
          report.path = "%s"
        }
        """.formatted(from, s3.endpoint(), work.resolve("reports"))), Map.of("ferry.destination.credentials.secret-access-key", "any"));
    RunSummary out = run(toBucket);
    assertThat(out.succeeded()).as(out.failures().toString()).isTrue();
    Path back = work.resolve("round-trip/back");
    var fromBucket = ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString("""
        ferry {
          job.name = round-trip-back
          source { endpoint = "%s", bucket = round-trip, credentials.access-key-id = any, symlinks = copy, empty-directories = copy }
          destination.path = "%s"
          report.path = "%s"
        }
        """.formatted(s3.endpoint(), back, work.resolve("reports"))), Map.of("ferry.source.credentials.secret-access-key", "any"));
    RunSummary in = run(fromBucket);
    assertThat(in.succeeded()).as(in.failures().toString()).isTrue();
    assertThat(in.objects().copied()).isEqualTo(5);
    assertThat(back.resolve("a.txt")).hasContent("alpha");
    assertThat(back.resolve("sub/b.txt")).hasContent("beta");
    assertThat(back.resolve("empty")).isEmptyDirectory();
    assertThat(Files.readSymbolicLink(back.resolve("to-a"))).isEqualTo(Path.of("a.txt"));
    assertThat(Files.readSymbolicLink(back.resolve("sub/out"))).as("written as it is, never followed")
        .isEqualTo(Path.of("../../../elsewhere/ü"));
    assertThat(Files.exists(back.resolve("to-a.rclonelink"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
    for (var e : times.entrySet()) {
      assertThat(Files.getLastModifiedTime(back.resolve(e.getKey()), java.nio.file.LinkOption.NOFOLLOW_LINKS).toMillis())
          .as(e.getKey()).isEqualTo(e.getValue());
    }
    RunSummary again = run(fromBucket);
    assertThat(again.objects().copied()).as("unchanged by the times they were given").isZero();
    assertThat(again.objects().skippedUnchanged()).isEqualTo(5);
  }

  /**
   * empty-directories = copy: a directory's empty folders are made again in a directory (a rerun finds them) and are
   * markers 'name/' in a bucket, whose markers a bucket's copy into a directory makes folders again.
   */
  @Test
  void emptyFoldersTravelAsFoldersAndAsFolderMarkers() throws Exception {
    Path from = Files.createDirectories(work.resolve("folders/source"));
    Files.writeString(Files.createDirectories(from.resolve("full")).resolve("a.txt"), "alpha");
    for (String dir : List.of("empty", "full/hollow/deeper")) Files.createDirectories(from.resolve(dir));
    Files.setLastModifiedTime(from.resolve("empty"), java.nio.file.attribute.FileTime.fromMillis(1_500_000_000_000L));
    Path to = work.resolve("folders/destination");
    String job = "job.name = folders\nferry.source.empty-directories = copy\nferry.destination.delete-extraneous = true";
    for (int round = 0; round < 2; round++) {
      RunSummary s = run(directoryJob(from, to, "report", job));
      assertThat(s.succeeded()).as(s.failures().toString()).isTrue();
      assertThat(s.objects().copied()).as("round " + round).isEqualTo(round == 0 ? 3 : 0);
      assertThat(s.deletions() == null ? 0 : s.deletions().deleted()).isZero();
    }
    assertThat(to.resolve("empty")).isEmptyDirectory();
    assertThat(Files.getLastModifiedTime(to.resolve("empty")).toMillis()).isEqualTo(1_500_000_000_000L);
    assertThat(to.resolve("full/hollow/deeper")).isEmptyDirectory();
    assertThat(to.resolve("full/a.txt")).hasContent("alpha");

    client.createBucket(b -> b.bucket("folders"));
    var toBucket = ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString("""
        ferry {
          job.name = folders-to-bucket
          source { type = file, path = "%s", empty-directories = copy }
          destination { type = s3, endpoint = "%s", bucket = folders, credentials.access-key-id = any }
          report.path = "%s"
        }
        """.formatted(from, s3.endpoint(), work.resolve("reports"))), Map.of("ferry.destination.credentials.secret-access-key", "any"));
    for (int round = 0; round < 2; round++) {
      RunSummary s = run(toBucket);
      assertThat(s.succeeded()).as(s.failures().toString()).isTrue();
      assertThat(s.objects().copied()).as("round " + round).isEqualTo(round == 0 ? 3 : 0);
    }
    Map<String, Long> held = new TreeMap<>();
    client.listObjectsV2Paginator(b -> b.bucket("folders")).contents().forEach(o -> held.put(o.key(), o.size()));
    assertThat(held).containsExactlyInAnyOrderEntriesOf(Map.of("empty/", 0L, "full/a.txt", 5L, "full/hollow/deeper/", 0L));

    Path back = work.resolve("folders/back");
    var fromBucket = ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString("""
        ferry {
          job.name = folders-from-bucket
          source { endpoint = "%s", bucket = folders, credentials.access-key-id = any, empty-directories = copy }
          destination.path = "%s"
          report.path = "%s"
        }
        """.formatted(s3.endpoint(), back, work.resolve("reports"))), Map.of("ferry.source.credentials.secret-access-key", "any"));
    RunSummary s = run(fromBucket);
    assertThat(s.succeeded()).as(s.failures().toString()).isTrue();
    assertThat(s.objects().copied()).isEqualTo(3);
    assertThat(back.resolve("empty")).isEmptyDirectory();
    assertThat(back.resolve("full/hollow/deeper")).isEmptyDirectory();
    assertThat(back.resolve("full/a.txt")).hasContent("alpha");
  }

  /**
   * hard-links = keep: a file's names are one file at the destination, its first name copied and the others linked to
   * the copy; a rerun finds them unchanged and links a name added since; another file stays a file of its own.
   */
  @Test
  void namesOfOneFileStayOneFile() throws Exception {
    Path from = Files.createDirectories(work.resolve("hard-links/source/b"));
    from = from.getParent();
    Files.writeString(from.resolve("a.txt"), "one file, three names");
    Files.createLink(from.resolve("b/a-again.txt"), from.resolve("a.txt"));
    Files.createLink(from.resolve("c.txt"), from.resolve("a.txt"));
    Files.writeString(from.resolve("d.txt"), "one file, three names"); // the same bytes, another file
    Path to = work.resolve("hard-links/destination");
    String job = "job.name = hard-links\nferry.source.hard-links = keep";
    RunSummary first = run(directoryJob(from, to, "report", job));
    assertThat(first.succeeded()).as(first.failures().toString()).isTrue();
    assertThat(first.objects().copied()).isEqualTo(4);
    assertThat(first.bytes().throughExecutors()).as("the file's bytes once, and the other file's")
        .isEqualTo(2L * "one file, three names".length());
    for (String name : List.of("b/a-again.txt", "c.txt")) {
      assertThat(Files.isSameFile(to.resolve("a.txt"), to.resolve(name))).as(name).isTrue();
      assertThat(to.resolve(name)).hasContent("one file, three names");
    }
    assertThat(Files.isSameFile(to.resolve("a.txt"), to.resolve("d.txt"))).isFalse();
    assertThat(Files.getAttribute(to.resolve("a.txt"), "unix:nlink")).isEqualTo(3);

    assertThat(run(directoryJob(from, to, "report", job)).objects().copied()).isZero();
    Files.createLink(from.resolve("e.txt"), from.resolve("a.txt"));
    RunSummary added = run(directoryJob(from, to, "report", job));
    assertThat(added.objects().copied()).isEqualTo(1);
    assertThat(Files.isSameFile(to.resolve("a.txt"), to.resolve("e.txt"))).isTrue();
  }

  private io.ferry.config.MigrationConfig directoryJob(Path from, Path to, String symlinks, String extra) {
    return ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString("""
        ferry {
          job.name = links-%3$s
          source { type = file, path = "%1$s", symlinks = %3$s }
          destination.path = "%2$s"
          report.path = "%4$s"
        }
        ferry.%5$s
        """.formatted(from, to, symlinks, work.resolve("reports"), extra.isEmpty() ? "job.name = links-" + symlinks : extra)),
        Map.of());
  }

  /**
   * The SDK's default chain with web identity (Kubernetes IRSA, EKS Pod Identity): a Ferry process given a token file
   * and a role in its environment, and no keys, takes temporary keys from STS's AssumeRoleWithWebIdentity (the local
   * responder, named by the SDK's own AWS_ENDPOINT_URL_STS) and signs the destination's requests with them.
   */
  @Test
  void theDefaultChainTakesWebIdentityFromTheEnvironment() throws Exception {
    client.createBucket(b -> b.bucket("web-identity"));
    try (StsServer sts = new StsServer("none"); FaultProxy sniffer = FaultProxy.before(s3.endpoint())) {
      sts.webIdentityToken("eyJ.service-account-token.sig");
      Path token = Files.writeString(work.resolve("token"), "eyJ.service-account-token.sig");
      Path conf = Files.writeString(work.resolve("web-identity.conf"), """
          ferry {
            job.name = web-identity
            source { endpoint = "%1$s", bucket = fidelity-src, credentials { access-key-id = any, secret-access-key = ${?SRC_SECRET} } }
            destination { type = s3, endpoint = "%2$s", bucket = web-identity, region = us-east-1, credentials.type = default-chain }
            report.path = "%3$s"
          }
          """.formatted(s3.endpoint(), sniffer.endpoint(), work.resolve("reports")));
      Path log = work.resolve("web-identity.log");
      Map<String, String> env = new java.util.HashMap<>(Map.of("SRC_SECRET", "any", "AWS_WEB_IDENTITY_TOKEN_FILE", token.toString(),
          "AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/migration", "AWS_ROLE_SESSION_NAME", "ferry-pod",
          "AWS_ENDPOINT_URL_STS", sts.url(), "AWS_REGION", "us-east-1"));
      // nothing else of the chain's may answer first
      env.putAll(Map.of("AWS_CONFIG_FILE", work.resolve("none").toString(), "AWS_SHARED_CREDENTIALS_FILE",
          work.resolve("none").toString(), "AWS_EC2_METADATA_DISABLED", "true"));
      Process p = io.ferry.support.FerryProcess.start(conf, log, env, "migrate");
      assertThat(p.waitFor(180, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(Files.readString(log)).isZero();
      assertThat(sts.forms()).isNotEmpty().allSatisfy(f -> {
        assertThat(f).containsEntry("Action", "AssumeRoleWithWebIdentity").containsEntry("RoleArn",
            "arn:aws:iam::123456789012:role/migration").containsEntry("RoleSessionName", "ferry-pod");
      });
      assertThat(sniffer.requests()).contains("Credential=ASIATEMP").doesNotContain("Credential=any/");
      for (var e : digests.entrySet()) {
        assertThat(sha(client.getObjectAsBytes(b -> b.bucket("web-identity").key(e.getKey())).asByteArray())).as(e.getKey())
            .isEqualTo(e.getValue());
      }
      assertThat(Files.readString(log)).doesNotContain(StsServer.SECRET_PREFIX).doesNotContain("session-token-");
    }
  }

  private RunSummary migrate(String bucket, String destinationEndpoint, String extra) throws Exception {
    var config = ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString("""
        ferry {
          job.name = fidelity
          source { endpoint = "%1$s", bucket = fidelity-src, credentials.access-key-id = any }
          destination { type = s3, endpoint = "%2$s", bucket = %3$s, credentials.access-key-id = any }
          report.path = "%4$s"
          plan { part-size = 5MiB, copy-cutoff = 0 }
          copy { retries = 2, backoff = 20ms, max-backoff = 200ms }
        }
        %5$s
        """.formatted(s3.endpoint(), destinationEndpoint, bucket, work.resolve("reports"), extra)),
        Map.of("ferry.source.credentials.secret-access-key", "any", "ferry.destination.credentials.secret-access-key", "any"));
    return run(config);
  }

  private RunSummary run(io.ferry.config.MigrationConfig config) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    return MigrationJob.run(config, JavaSparkContext.fromSparkContext(spark.sparkContext()),
        new PrintStream(out, true, StandardCharsets.UTF_8));
  }

  /** The head of the first request {@code method} of {@code key} (with its query), as the proxy saw it. */
  private static String request(String requests, String method, String bucket, String keyAndQuery) {
    int at = requests.indexOf(method + " /" + bucket + "/" + keyAndQuery + (keyAndQuery.contains("?") ? "" : " "));
    assertThat(at).as(method + " " + keyAndQuery).isNotNegative();
    return requests.substring(at, requests.indexOf("\r\n\r\n", at));
  }

  /** The head of the request that wrote {@code key} whole (its PUT), as the proxy saw it. */
  private static String request(String requests, String bucket, String key) {
    int at = requests.indexOf("PUT /" + bucket + "/" + key + " ");
    assertThat(at).as("a PUT of " + key).isNotNegative();
    return requests.substring(at, requests.indexOf("\r\n\r\n", at));
  }

  private static String tagging(Map<String, String> tags) {
    StringBuilder b = new StringBuilder();
    tags.forEach((k, v) -> b.append(b.length() == 0 ? "" : "&").append(k).append('=').append(v));
    return b.toString();
  }

  /** The modification time the listing gives (to the millisecond; a HEAD's is to the second). */
  private long listedMillis(String key) {
    return client.listObjectsV2(b -> b.bucket("fidelity-src").prefix(key)).contents().get(0).lastModified().toEpochMilli();
  }

  private HeadObjectResponse head(String bucket, String key) {
    return client.headObject(b -> b.bucket(bucket).key(key));
  }

  private Map<String, String> tags(String bucket, String key) {
    Map<String, String> tags = new TreeMap<>();
    for (Tag t : client.getObjectTagging(b -> b.bucket(bucket).key(key)).tagSet()) tags.put(t.key(), t.value());
    return tags;
  }

  private static Map<String, String> systemHeaders(HeadObjectResponse h) {
    Map<String, String> m = new TreeMap<>();
    for (String name : ObjectMetadata.HEADERS) h.sdkHttpResponse().firstMatchingHeader(name).ifPresent(v -> m.put(name, v));
    return m;
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static String sha(byte[] bytes) {
    return java.util.HexFormat.of().formatHex(SeedData.sha256().digest(bytes));
  }
}
