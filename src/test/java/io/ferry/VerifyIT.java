package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.store.checksums.Checksum;
import io.ferry.support.FaultProxy;
import io.ferry.support.SeedData;
import io.ferry.support.Jobs;
import io.ferry.support.LocalSpark;
import io.ferry.support.S3Backend;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * {@code ferry verify} against a real S3 server: a destination copied by Ferry matches; then one object removed, one
 * with a byte changed (same size), one cut short and one extra are each reported as what they are, in the output and
 * in the verify dataset, and the command exits 1.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VerifyIT {
  private static final long MIB = 1L << 20;
  @TempDir static Path work;
  private S3Backend s3;
  private SparkSession spark;

  @BeforeAll
  void start() throws Exception {
    s3 = S3Backend.start(work);
    spark = LocalSpark.start("VerifyIT");
    SeedData.upload(s3.client(), "src", List.of(new SeedData.Spec("big.bin", 20 * MIB + 3, 1), new SeedData.Spec("a.txt", 1000, 2),
        new SeedData.Spec("b.txt", 2000, 3), new SeedData.Spec("c.txt", 3000, 4), new SeedData.Spec("empty", 0, 5)));
  }

  @AfterAll
  void stop() throws Exception {
    if (spark != null) spark.stop();
    if (s3 != null) s3.close();
  }

  private record Run(int code, String out) {}

  private Run ferry(String command, Path conf, String... more) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> args = new ArrayList<>(List.of(command, conf.toString(), "-Dferry.source.credentials.secret-access-key=" + s3.secret()));
    args.addAll(List.of(more));
    int code = Ferry.run(args.toArray(String[]::new),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(out, true, StandardCharsets.UTF_8));
    return new Run(code, out.toString(StandardCharsets.UTF_8));
  }

  private Set<Path> verifyReports(String job) throws IOException {
    if (!Files.isDirectory(work.resolve("reports").resolve(job))) return new HashSet<>();
    try (Stream<Path> runs = Files.list(work.resolve("reports").resolve(job))) {
      return runs.filter(p -> p.getFileName().toString().startsWith("verify-")).collect(Collectors.toCollection(HashSet::new));
    }
  }

  @Test
  void aDirectoryCopyMatchesThenEachKindOfDifferenceIsReported() throws Exception {
    Path destination = work.resolve("files");
    Path conf = Jobs.file(work.resolve("conf"), "files.conf", Jobs.hocon(s3.endpoint(), s3.identity(), "src", destination,
        work.resolve("reports"), "ferry.job.name = verify-files"));
    assertThat(ferry("migrate", conf).code()).isZero();
    Run clean = ferry("verify", conf);
    assertThat(clean.code()).as(clean.out()).isZero();
    assertThat(clean.out()).contains("the destination matches the source").containsPattern("match +5");

    Files.delete(destination.resolve("a.txt"));
    try (RandomAccessFile f = new RandomAccessFile(destination.resolve("big.bin").toFile(), "rw")) {
      f.seek(12 * MIB + 7); // in the second 8 MiB part
      int b = f.read();
      f.seek(12 * MIB + 7);
      f.write(~b);
    }
    Files.write(destination.resolve("b.txt"), new byte[10]);
    Files.writeString(destination.resolve("extra.txt"), "only here");
    Set<Path> earlier = verifyReports("verify-files");
    Run differing = ferry("verify", conf);
    assertThat(differing.code()).as(differing.out()).isEqualTo(Ferry.SOME_FAILED);
    assertThat(differing.out()).contains("DIFFERENCES FOUND")
        .contains("MISSING a.txt not at the destination")
        .contains("CONTENT_DIFFERS big.bin part 2 of 3 (bytes=8388608-16777215): source crc32c")
        .contains("SIZE_DIFFERS b.txt source 2000 bytes, destination 10")
        .contains("EXTRA extra.txt only at the destination");
    Path report = made("verify-files", earlier);
    Map<String, String> statuses = spark.read().parquet(report.resolve("verify.parquet").toString()).collectAsList().stream()
        .collect(Collectors.toMap(r -> r.getAs("key"), (Row r) -> r.getAs("status")));
    assertThat(statuses).containsExactlyInAnyOrderEntriesOf(Map.of("a.txt", "MISSING", "big.bin", "CONTENT_DIFFERS", "b.txt",
        "SIZE_DIFFERS",
        "c.txt", "MATCH", "empty", "MATCH", "extra.txt", "EXTRA"));
    assertThat(Files.readString(report.resolve("summary.json"))).contains("\"name\" : \"ferry-verify-summary\"");
  }

  @Test
  void aBucketCopyIsSettledByMd5EtagsWithoutReadingAndAChangedObjectIsFound() throws Exception {
    s3.client().createBucket(b -> b.bucket("dst"));
    Path conf = Jobs.file(work.resolve("conf"), "bucket.conf", Jobs.hocon(s3.endpoint(), s3.identity(), "src", work.resolve("unused"),
        work.resolve("reports"), """
            ferry.job.name = verify-bucket
            ferry.destination { type = s3, endpoint = "%s", bucket = dst, server-side-copy = never
              credentials { access-key-id = "%s", secret-access-key = "%s" } }
            """.formatted(s3.endpoint(), s3.identity(), s3.secret())));
    assertThat(ferry("migrate", conf).code()).isZero();
    Run clean = ferry("verify", conf);
    assertThat(clean.code()).as(clean.out()).isZero();
    s3.client().putObject(b -> b.bucket("dst").key("c.txt"), RequestBody.fromBytes(new byte[3000])); // same size, other bytes
    Run changed = ferry("verify", conf);
    assertThat(changed.code()).isEqualTo(Ferry.SOME_FAILED);
    assertThat(changed.out()).contains("CONTENT_DIFFERS c.txt source crc32c");
  }

  /** The verify run's folder {@code run} made: run ids of one second order by their random suffix, so it is the set difference. */
  private Path made(String job, Set<Path> earlier) throws IOException {
    Set<Path> reports = verifyReports(job);
    reports.removeAll(earlier);
    assertThat(reports).hasSize(1);
    return reports.iterator().next();
  }

  @Test
  void aManifestProvesEachObjectByAChecksumOfEachSideAndItsSha256ChecksItsOwnBytes() throws Exception {
    Path destination = work.resolve("proof");
    Path conf = Jobs.file(work.resolve("conf"), "proof.conf", Jobs.hocon(s3.endpoint(), s3.identity(), "src", destination,
        work.resolve("reports"), "ferry.job.name = verify-proof"));
    assertThat(ferry("migrate", conf).code()).isZero();
    Set<Path> earlier = verifyReports("verify-proof");
    Run proven = ferry("verify", conf, "--manifest");
    assertThat(proven.code()).as(proven.out()).isZero();
    assertThat(proven.out()).contains("PROVEN: every source object equal by a checksum of each side")
        .contains("listed           5 objects").contains("each in one row").contains("5 of 5 source objects proven");
    Path report = made("verify-proof", earlier);
    Map<String, Row> rows = spark.read().parquet(report.resolve("manifest.parquet").toString()).collectAsList().stream()
        .collect(Collectors.toMap(r -> r.getAs("key"), r -> r));
    assertThat(rows).hasSize(5);
    for (Row r : rows.values()) {
      assertThat((String) r.getAs("status")).isEqualTo("MATCH");
      assertThat((String) r.getAs("source_checksum")).startsWith("crc32c:").isEqualTo(r.getAs("destination_checksum"));
      assertThat((String) r.getAs("method")).isEqualTo("read-crc32c");
    }
    CRC32C big = new CRC32C(); // the whole object's, combined from its three ranges read on the cluster
    big.update(Files.readAllBytes(destination.resolve("big.bin")));
    assertThat((String) rows.get("big.bin").getAs("source_checksum")).isEqualTo("crc32c:" + Checksum.encode(big.getValue(), 4));
    assertThat(rows.get("big.bin").<Integer>getAs("ranges")).isEqualTo(3);
    // the summary's SHA-256 is that of the CSV parts in name order, and the rows are in key order across them
    JsonNode summary = new ObjectMapper().readTree(report.resolve("summary.json").toFile());
    List<Path> parts;
    try (Stream<Path> files = Files.list(report.resolve("manifest.csv"))) {
      parts = files.filter(p -> p.getFileName().toString().matches("part-\\d+\\.csv")).sorted().toList();
    }
    ByteArrayOutputStream csv = new ByteArrayOutputStream();
    for (Path part : parts) csv.write(Files.readAllBytes(part));
    assertThat(summary.at("/manifest/sha256").asText())
        .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(csv.toByteArray())));
    assertThat(summary.at("/manifest/proven").asLong()).isEqualTo(5);
    assertThat(summary.at("/listed/sourceObjects").asLong()).isEqualTo(5);
    List<String> keys = csv.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.startsWith("job,")).map(l -> l.split(",")[2]).toList();
    assertThat(keys).containsExactly("a.txt", "b.txt", "big.bin", "c.txt", "empty");

    try (RandomAccessFile f = new RandomAccessFile(destination.resolve("big.bin").toFile(), "rw")) {
      f.seek(20 * MIB); // in the last, short part
      int b = f.read();
      f.seek(20 * MIB);
      f.write(~b);
    }
    Files.writeString(destination.resolve("extra.txt"), "only here");
    earlier = verifyReports("verify-proof");
    Run differs = ferry("verify", conf, "--manifest");
    assertThat(differs.code()).as(differs.out()).isEqualTo(Ferry.SOME_FAILED);
    assertThat(differs.out()).contains("NOT PROVEN").contains("4 of 5 source objects proven")
        .contains("CONTENT_DIFFERS big.bin part 3 of 3");
    Row changed = spark.read().parquet(made("verify-proof", earlier).resolve("manifest.parquet").toString()).collectAsList().stream()
        .filter(r -> r.getAs("key").equals("big.bin")).findFirst().orElseThrow();
    assertThat((String) changed.getAs("destination_checksum")).startsWith("crc32c:").isNotEqualTo(changed.getAs("source_checksum"));
    assertThat(ferry("migrate", conf, "--manifest").code()).as("--manifest is verify's").isEqualTo(Ferry.BAD_CONFIG);
  }

  @Test
  void twoBucketsObjectsAreSettledByTheChecksumsBothKeepWithoutReadingThemAndTheRestAreRead() throws Exception {
    s3.client().createBucket(b -> b.bucket("kept-src"));
    s3.client().createBucket(b -> b.bucket("kept-dst"));
    byte[] same = new byte[(int) (20 * MIB)];
    new SplittableRandom(11).nextBytes(same);
    byte[] changed = new byte[(int) (20 * MIB)];
    new SplittableRandom(12).nextBytes(changed);
    byte[] other = changed.clone();
    other[7] ^= 1;
    for (var e : Map.of("same.bin", same, "changed.bin", changed, "plain.bin", same).entrySet()) {
      s3.client().putObject(b -> b.bucket("kept-src").key(e.getKey()).checksumCRC32C(SeedData.crc32c(e.getValue(), 0, e.getValue().length)),
          RequestBody.fromBytes(e.getValue()));
    }
    SeedData.putInParts(s3.client(), "kept-dst", "same.bin", same, 6 << 20, true);
    SeedData.putInParts(s3.client(), "kept-dst", "changed.bin", other, 6 << 20, true); // another byte, its own stored checksum
    SeedData.putInParts(s3.client(), "kept-dst", "plain.bin", same, 6 << 20, false); // no checksum kept: read
    try (FaultProxy counter = FaultProxy.before(s3.endpoint())) {
      Path conf = Jobs.file(work.resolve("conf"), "kept.conf", Jobs.hocon(counter.endpoint(), s3.identity(), "kept-src",
          work.resolve("unused"), work.resolve("reports"), """
              ferry.job.name = verify-kept
              ferry.destination { type = s3, endpoint = "%s", bucket = kept-dst
                credentials { access-key-id = "%s", secret-access-key = "%s" } }
              """.formatted(counter.endpoint(), s3.identity(), s3.secret())));
      Set<Path> earlier = verifyReports("verify-kept");
      Run run = ferry("verify", conf, "--manifest");
      assertThat(run.code()).as(run.out()).isEqualTo(Ferry.SOME_FAILED);
      assertThat(run.out()).contains("3 keys in all, 2 settled by the checksums both stores keep, 3 ranges to read on both sides")
          .contains("CONTENT_DIFFERS changed.bin stored crc32c: source ").contains("2 of 3 source objects proven");
      assertThat(counter.seen(FaultProxy.Kind.GET_OBJECT)).as("only plain.bin is read, 3 ranges a side").isEqualTo(6);
      Map<String, Row> rows = spark.read().parquet(made("verify-kept", earlier).resolve("manifest.parquet").toString()).collectAsList()
          .stream().collect(Collectors.toMap(r -> r.getAs("key"), r -> r));
      String stored = "crc32c:" + SeedData.crc32c(same, 0, same.length);
      assertThat(rows.get("same.bin").<String>getAs("method")).isEqualTo("stored-crc32c");
      assertThat(rows.get("same.bin").<String>getAs("destination_checksum")).isEqualTo(stored);
      assertThat(rows.get("changed.bin").<String>getAs("status")).isEqualTo("CONTENT_DIFFERS");
      // read, each side's ranges combined into the CRC32C the source's store keeps of the whole
      assertThat(rows.get("plain.bin").<String>getAs("method")).isEqualTo("read-crc32c");
      assertThat(rows.get("plain.bin").<String>getAs("source_checksum")).isEqualTo(stored).isEqualTo(rows.get("plain.bin")
          .getAs("destination_checksum"));
    }
  }
}
