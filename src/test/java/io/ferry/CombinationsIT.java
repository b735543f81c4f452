package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.config.ConfigException;
import io.ferry.config.ConfigLoader;
import io.ferry.support.SeedData;
import io.ferry.report.RunSummary;
import io.ferry.spark.run.MigrationJob;
import io.ferry.support.Buckets;
import io.ferry.support.FaultProxy;
import io.ferry.support.FaultProxy.Fault;
import io.ferry.support.FaultProxy.Kind;
import io.ferry.support.Jobs;
import io.ferry.support.LocalSpark;
import io.ferry.support.S3Backend;
import io.ferry.support.Trees;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Features that each hold alone, combined as users combine them: the cut-over pass with prefixes, with a manifest
 * and with a directory source that changes while it is listed; a destination directory holding symbolic links; reruns
 * after a storm of throttling; a bucket copied to itself without server-side copies; a body corrupted in transit.
 * Each case is one a user met (issue 22), and failed before its fix.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CombinationsIT {
  private static final long MIB = 1L << 20;
  private static final AtomicInteger NAMES = new AtomicInteger();
  @TempDir static Path work;
  private S3Backend a;
  private S3Backend b;
  private FaultProxy toA;
  private FaultProxy toB;
  private SparkSession spark;

  @BeforeAll
  void start() throws Exception {
    a = S3Backend.start(work.resolve("a"));
    b = S3Backend.start(work.resolve("b"));
    toA = FaultProxy.before(a.endpoint());
    toB = FaultProxy.before(b.endpoint());
    spark = LocalSpark.start("CombinationsIT");
  }

  @AfterAll
  void stop() throws Exception {
    if (spark != null) spark.stop();
    for (AutoCloseable c : new AutoCloseable[] {toA, toB, a, b}) if (c != null) c.close();
  }

  @AfterEach
  void passEverything() {
    toA.clear();
    toB.clear();
  }

  private static String name(String what) {
    return what + "-" + NAMES.incrementAndGet();
  }

  private record Run(RunSummary summary, String out) {}

  /** A job reading bucket {@code bucket} of server A (through its fault proxy) into {@code destination}. */
  private String job(String bucket, Path destination, String extra) {
    return Jobs.hocon(toA.endpoint(), a.identity(), bucket, destination, work.resolve("reports"), extra);
  }

  /** A destination block: bucket {@code bucket} of server B, or of A itself ({@code sameEndpoint}). */
  private String bucketDestination(String bucket, boolean sameEndpoint) {
    S3Backend server = sameEndpoint ? a : b;
    return """
        ferry.destination { type = s3, endpoint = "%s", bucket = %s
          credentials { access-key-id = "%s", secret-access-key = "%s" } }
        """.formatted(sameEndpoint ? toA.endpoint() : toB.endpoint(), bucket, server.identity(), server.secret());
  }

  private Run migrate(String hocon) throws Exception {
    var config = ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString(hocon),
        Map.of("ferry.source.credentials.secret-access-key", a.secret()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunSummary summary = MigrationJob.run(config, JavaSparkContext.fromSparkContext(spark.sparkContext()),
        new PrintStream(out, true, StandardCharsets.UTF_8));
    return new Run(summary, out.toString(StandardCharsets.UTF_8));
  }

  private Map<String, String> seed(String bucket, Map<String, Integer> sizes) {
    a.client().createBucket(r -> r.bucket(bucket));
    List<SeedData.Spec> specs = sizes.entrySet().stream().map(e -> new SeedData.Spec(e.getKey(), e.getValue(),
        e.getKey().hashCode())).toList();
    return new TreeMap<>(SeedData.upload(a.client(), bucket, specs));
  }

  /** Digests keyed relative to {@code prefix}, for the keys under it. */
  private static Map<String, String> under(Map<String, String> digests, String prefix) {
    Map<String, String> out = new TreeMap<>();
    digests.forEach((k, v) -> {
      if (k.startsWith(prefix)) out.put(k.substring(prefix.length()), v);
    });
    return out;
  }

  @Test
  void theCutOverPassWithPrefixesDeletesNothingTheSourceStillHolds() throws Exception {
    String bucket = name("cut-prefixes");
    Map<String, String> source = seed(bucket, Map.of("archive/2018/a", 100, "archive/2018/b", 200, "archive/2019/c", 300, "other/d", 5));
    Path dest = work.resolve(bucket);
    Run first = migrate(job(bucket, dest, "ferry { job.name = " + bucket + ", source.prefix = \"archive/\" }"));
    assertThat(first.summary().succeeded()).as(first.out()).isTrue();
    assertThat(Trees.digests(dest)).isEqualTo(under(source, "archive/"));

    Run second = migrate(job(bucket, dest, "ferry { job.name = " + bucket + ", source { prefix = \"archive/\", prefixes = [\"2018\"] },"
        + " destination.delete-extraneous = true }"));
    assertThat(second.summary().succeeded()).as(second.out()).isTrue();
    assertThat(second.out()).contains("LIST  2 objects listed");
    assertThat(Trees.digests(dest)).as("2019/c lies outside the prefixes; 2018/a and 2018/b are the source's").isEqualTo(under(source,
        "archive/"));
  }

  @Test
  void theCutOverPassNeverDeletesFromAManifestUnlessItIsAnInventoryAndThenNothingTheSourceHolds() throws Exception {
    String bucket = name("cut-manifest");
    Map<String, Integer> sizes = new TreeMap<>();
    for (int i = 0; i < 10; i++) sizes.put("k" + i, 1000 + i);
    Map<String, String> source = seed(bucket, sizes);
    Path dest = work.resolve(bucket);
    Run first = migrate(job(bucket, dest, "ferry.job.name = " + bucket));
    assertThat(first.summary().succeeded()).as(first.out()).isTrue();
    Path manifest = Files.writeString(work.resolve(bucket + ".keys"), "k1\nk2\n");

    String withManifest = "ferry { job.name = " + bucket + ", source.manifest = \"" + manifest
        + "\", destination.delete-extraneous = true %s }";
    assertThatThrownBy(() -> migrate(job(bucket, dest, withManifest.formatted(""))))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("ferry.source.manifest-complete");
    assertThat(Trees.digests(dest)).isEqualTo(source);

    // declared complete (it is not), with no cap: each deletion is checked at the source first, which holds them all
    Run second = migrate(job(bucket, dest, withManifest.formatted(", source.manifest-complete = true, destination.max-delete = \"100%\"")));
    assertThat(second.out()).contains("8 kept: the source holds them");
    assertThat(Trees.digests(dest)).isEqualTo(source);
  }

  @Test
  void aSymbolicLinkInTheDestinationNeverCarriesAWriteOutsideIt() throws Exception {
    String bucket = name("links");
    Map<String, String> source = seed(bucket, Map.of("data/x", 1000, "y", 2000, "z/w", 3000));
    Path dest = Files.createDirectories(work.resolve(bucket));
    Path elsewhere = Files.createDirectories(work.resolve(bucket + "-elsewhere"));
    Path victim = Files.writeString(work.resolve(bucket + "-victim"), "a user's file outside the destination");
    Files.createSymbolicLink(dest.resolve("data"), elsewhere);
    Files.createSymbolicLink(dest.resolve(".y.ferry-" + bucket + ".tmp"), victim); // a temp file's name, planted
    Run run = migrate(job(bucket, dest, "ferry.job.name = " + bucket));
    assertThat(run.summary().objects().failed()).as(run.out()).isEqualTo(1);
    assertThat(run.summary().failures().get(0).error()).contains("symbolic link");
    try (var files = Files.list(elsewhere)) {
      assertThat(files.toList()).as("nothing written through the link").isEmpty();
    }
    assertThat(victim).hasContent("a user's file outside the destination");
    Map<String, String> copied = Trees.digests(dest);
    assertThat(copied).containsEntry("y", source.get("y")).containsEntry("z/w", source.get("z/w")).doesNotContainKey("data/x");
  }

  @Test
  void aRunThatFailedInAStormOfThrottlingIsCompletedByOneRerun() throws Exception {
    String bucket = name("storm");
    Map<String, String> source = seed(bucket, Map.of("big-1", (int) (11 * MIB + 7), "big-2", (int) (6 * MIB), "small", 10_000));
    String target = name("storm-dst");
    b.client().createBucket(r -> r.bucket(target));
    String hocon = job(bucket, work.resolve("unused"), """
        ferry { job.name = %s, plan.part-size = 5MiB, copy { retries = 5, backoff = 100ms, max-backoff = 1s } }
        %s""".formatted(bucket, bucketDestination(target, false)));
    // every upload to the destination answered 503 for 4 s, from its first part on; the aborts after it go through
    AtomicBoolean started = new AtomicBoolean();
    Thread clear = new Thread(() -> {
      sleep(Duration.ofSeconds(4));
      toB.clear();
    });
    toB.inject(Kind.UPLOAD_PART, new Fault.Before(() -> {
      if (started.compareAndSet(false, true)) {
        toB.injectAlways(Kind.UPLOAD_PART, Fault.slowDown()).injectAlways(Kind.PUT_OBJECT, Fault.slowDown());
        clear.start();
      }
    }), 1);
    Run stormy = migrate(hocon);
    assertThat(stormy.summary().succeeded()).as("the storm outlasts the retries: " + stormy.out()).isFalse();
    clear.join();
    Run rerun = migrate(hocon);
    assertThat(rerun.summary().succeeded()).as(rerun.out()).isTrue();
    assertThat(Buckets.digests(b.client(), target, "")).isEqualTo(source);
    assertThat(Buckets.openUploads(b.client(), target)).isZero();
  }

  @Test
  void aBucketCopiedWithinItsOwnServiceWithoutServerSideCopiesFinishes() throws Exception {
    String bucket = name("same");
    Map<String, Integer> sizes = new TreeMap<>();
    for (int i = 0; i < 200; i++) sizes.put("o" + i, 20_000 + i);
    sizes.put("large", (int) (12 * MIB));
    Map<String, String> source = seed(bucket, sizes);
    String target = name("same-dst");
    a.client().createBucket(r -> r.bucket(target));
    String hocon = job(bucket, work.resolve("unused"), """
        ferry { job.name = %s, plan { part-size = 5MiB, bundle-objects = 50 }
          destination.server-side-copy = never }
        %s""".formatted(bucket, bucketDestination(target, true)));
    Run run = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(90), () -> migrate(hocon));
    assertThat(run.summary().succeeded()).as(run.out()).isTrue();
    assertThat(run.out()).contains("method stream-to-bucket");
    assertThat(Buckets.digests(a.client(), target, "")).isEqualTo(source);
  }

  @Test
  void aFileComingAndGoingInADirectorySourceNeverEmptiesTheCutOverPass() throws Exception {
    String name = name("churn");
    Path source = work.resolve(name + "-src");
    for (int d = 0; d < 3; d++) {
      Files.createDirectories(source.resolve("d" + d));
      for (int i = 0; i < 600; i++) {
        Files.writeString(source.resolve(String.format("d%d/%s%04d", d, i % 2 == 0 ? "f" : "g", i)), "file " + d + "/" + i);
      }
    }
    String target = name("churn-dst");
    b.client().createBucket(r -> r.bucket(target));
    String hocon = """
        ferry { job.name = %s, source { type = file, path = "%s" }, report.path = "%s"
          copy { retries = 3, backoff = 20ms, max-backoff = 200ms }, destination.delete-extraneous = %s }
        %s""";
    Run first = migrate(hocon.formatted(name, source, work.resolve("reports"), false, bucketDestination(target, false)));
    assertThat(first.summary().succeeded()).as(first.out()).isTrue();
    Map<String, String> copied = Buckets.digests(b.client(), target, "");
    assertThat(copied).hasSize(1800);

    AtomicBoolean churning = new AtomicBoolean(true);
    Thread churn = new Thread(() -> {
      while (churning.get()) {
        for (int d = 0; d < 3; d++) {
          Path tmp = source.resolve("d" + d + "/g.tmp"); // listed after the f* files, before the g* ones
          try {
            Files.writeString(tmp, "coming");
            Files.deleteIfExists(tmp);
          } catch (java.io.IOException e) {
            // the run may be reading the folder: try again
          }
        }
      }
    });
    churn.start();
    try {
      for (int round = 0; round < 2; round++) {
        Run rerun = migrate(hocon.formatted(name, source, work.resolve("reports"), true, bucketDestination(target, false)));
        // each folder's churning file may be seen once, as present: never fewer than the 1,800 that stay
        assertThat(rerun.out()).as("every file listed").containsPattern("LIST  180[0-3] objects listed");
        assertThat(Buckets.digests(b.client(), target, "")).as("round " + round + ": " + rerun.out()).containsAllEntriesOf(copied);
      }
    } finally {
      churning.set(false);
      churn.join();
    }
  }

  @Test
  void aCompletionWhoseAnswerWasLostIsAwaitedUntilItsObjectIsThere() throws Exception {
    // the Complete's answer lost; the retried Complete answered NoSuchKey (as S3Proxy answers one for an upload it
    // completed), and the object not yet visible at the first look (S3 answers a completion before it ends): the
    // retries wait for it, where NoSuchKey used to fail the object (CI saw it once)
    String bucket = name("late");
    Map<String, String> source = seed(bucket, Map.of("split.bin", (int) (11 * MIB + 3)));
    String target = name("late-dst");
    b.client().createBucket(r -> r.bucket(target));
    int before = toB.injected(Fault.Status.class);
    toB.inject(Kind.COMPLETE_UPLOAD, new Fault.LoseResponse(), 1);
    toB.inject(Kind.COMPLETE_UPLOAD, new Fault.Status(404, "NoSuchKey"), 1);
    toB.inject(Kind.HEAD_OBJECT, "split.bin", new Fault.Status(404, "NoSuchKey"), 1);
    Run run = migrate(job(bucket, work.resolve("unused"), """
        ferry { job.name = %s, plan.part-size = 5MiB, copy { retries = 3, backoff = 50ms, max-backoff = 200ms } }
        %s""".formatted(bucket, bucketDestination(target, false))));
    assertThat(run.summary().succeeded()).as(run.out()).isTrue();
    assertThat(toB.injected(Fault.Status.class) - before).as("the Complete answered NoSuchKey, the object not there at first").isEqualTo(2);
    assertThat(Buckets.digests(b.client(), target, "")).isEqualTo(source);
  }

  @Test
  void aByteFlippedInAnUploadBodyIsRetriedAndNeverBlamedOnTheKeys() throws Exception {
    String bucket = name("flip-up");
    Map<String, String> source = seed(bucket, Map.of("split.bin", (int) (11 * MIB + 3), "whole.bin", 200_000));
    String target = name("flip-up-dst");
    b.client().createBucket(r -> r.bucket(target));
    toB.inject(Kind.UPLOAD_PART, new Fault.FlipRequestByte(1000), 1);
    toB.inject(Kind.PUT_OBJECT, new Fault.FlipRequestByte(1000), 1);
    Run run = migrate(job(bucket, work.resolve("unused"), """
        ferry { job.name = %s, plan.part-size = 5MiB }
        %s""".formatted(bucket, bucketDestination(target, false))));
    assertThat(toB.injected(Fault.FlipRequestByte.class)).isEqualTo(2);
    assertThat(run.summary().succeeded()).as(run.out()).isTrue();
    assertThat(run.out()).doesNotContain("secret access key is wrong");
    assertThat(Buckets.digests(b.client(), target, "")).isEqualTo(source);
  }

  @Test
  void theCutOverPassWritesItsPlanFirstThenMovesAsideWhatItWouldDelete() throws Exception {
    String bucket = name("aside");
    Map<String, String> source = seed(bucket, Map.of("a", 100, "b", 200, "dir/c", 300));
    Path dest = work.resolve(bucket);
    Path aside = work.resolve(bucket + "-deleted");
    String hocon = "ferry { job.name = " + bucket + ", destination { delete-extraneous = true, max-delete = \"100%\", delete-to = \""
        + aside + "\" } }";
    assertThat(migrate(job(bucket, dest, hocon)).summary().succeeded()).isTrue();
    a.client().deleteObject(r -> r.bucket(bucket).key("b"));
    Run run = migrate(job(bucket, dest, hocon));
    assertThat(run.summary().succeeded()).as(run.out()).isTrue();
    String runId = run.summary().run();
    assertThat(run.out()).contains("DELETE 1 extraneous objects moved to " + aside.resolve(runId));
    assertThat(run.summary().deletions()).isEqualTo(new RunSummary.Deletions("ran", "", 1, 0, 1, 0, 0));
    assertThat(dest.resolve("b")).doesNotExist();
    assertThat(Trees.digests(aside.resolve(runId))).isEqualTo(Map.of("b", source.get("b")));
    Path report = work.resolve("reports").resolve(bucket).resolve(runId);
    assertThat(csv(report.resolve("deletion-plan.csv"))).contains(",b,").contains("PLANNED").contains("move to " + aside.resolve(runId));
    assertThat(csv(report.resolve("deletions.csv"))).contains(",b,").contains("MOVED");
  }

  private static String csv(Path dataset) throws java.io.IOException {
    try (var parts = Files.list(dataset)) {
      StringBuilder all = new StringBuilder();
      for (Path p : parts.filter(p -> p.getFileName().toString().endsWith(".csv")).toList()) all.append(Files.readString(p));
      return all.toString();
    }
  }

  /** Under LANG=C the JVM cannot name a file "été.txt": that object is rejected alone, and the rest copied. */
  @Test
  void aKeyThisJvmCannotNameAFileIsRejectedAloneUnderAnAsciiLocale() throws Exception {
    String bucket = name("ascii");
    Map<String, String> source = seed(bucket, Map.of("plain.txt", 100, "\u00e9t\u00e9.txt", 200));
    Path dest = work.resolve(bucket);
    Path conf = Jobs.file(work.resolve("conf"), bucket + ".conf", job(bucket, dest, "ferry { job.name = " + bucket
        + ", source.credentials.secret-access-key = ${?SRC_SECRET}, spark.master = \"local[1]\" }"));
    Path log = work.resolve(bucket + ".log");
    Process p = io.ferry.support.FerryProcess.start(conf, log, Map.of("SRC_SECRET", a.secret(), "LC_ALL", "C", "LANG", "C"), "migrate");
    assertThat(p.waitFor(3, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
    String out = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(out).isEqualTo(1);
    assertThat(out).contains("1 rejected").contains("file name encoding");
    assertThat(Files.readAllBytes(dest.resolve("plain.txt"))).isNotEmpty();
    assertThat(Trees.digests(dest)).containsOnlyKeys("plain.txt").containsEntry("plain.txt", source.get("plain.txt"));
  }

  /** A directory source's tree under {@code root}: relative path to content. */
  private static void files(Path root, Map<String, String> tree) throws Exception {
    for (Map.Entry<String, String> e : tree.entrySet()) {
      Path p = root.resolve(e.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, e.getValue());
    }
  }

  private Run migrateFiles(Path source, String destination, String extra) throws Exception {
    return migrate("ferry { job.name = " + source.getFileName() + ", source { type = file, path = \"" + source + "\" }, destination.path"
        + " = \"" + destination + "\", report.path = \"" + work.resolve("reports") + "\" }\n" + extra);
  }

  /**
   * Issue 45: a destination reached through a link into the source (a sync job's usual exclude of dot files, so the
   * marker is no key to be rejected) deleted the source's files and wrote into it. Refused now, with both real paths
   * named, and the source untouched; also when the link is made after the job file was read.
   */
  @Test
  void aDestinationReachedThroughALinkIntoTheSourceIsRefusedAndTheSourceUntouched() throws Exception {
    Path dir = Files.createDirectories(work.resolve(name("into-source")));
    Path src = dir.resolve("src");
    files(src, Map.of("sub/x.txt", "x", "sub/y.txt", "y", "top.txt", "t"));
    Files.createSymbolicLink(dir.resolve("LINK"), src);
    Map<String, String> before = Trees.digests(src);
    String sync = "ferry { destination.delete-extraneous = true, destination.max-delete = \"100%\", source.excludes = [\"**/.*\"] }";
    assertThatThrownBy(() -> migrateFiles(src, dir.resolve("LINK/sub").toString(), sync)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("overlaps the source").hasMessageContaining(src.toRealPath() + "/sub");
    Files.createSymbolicLink(dir.resolve("to-sub"), src.resolve("sub"));
    assertThatThrownBy(() -> migrateFiles(src, dir.resolve("to-sub").toString(), sync)).isInstanceOf(ConfigException.class);

    // read while "out" was a folder of its own, run after it became a link into the source
    Path out = Files.createDirectories(dir.resolve("out"));
    var config = ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString("ferry { job.name = relinked, source { type ="
        + " file, path = \"" + src + "\" }, destination.path = \"" + out + "\", report.path = \"" + work.resolve("reports") + "\" }\n"
        + sync), Map.of());
    Files.delete(out);
    Files.createSymbolicLink(out, src.resolve("sub"));
    assertThatThrownBy(() -> MigrationJob.run(config, JavaSparkContext.fromSparkContext(spark.sparkContext()),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))).isInstanceOf(ConfigException.class)
        .hasMessageContaining("overlaps the source");
    assertThat(Trees.digests(src)).as("nothing created, changed or deleted under the source").isEqualTo(before);
    try (var all = Files.walk(src)) {
      assertThat(all.filter(p -> p.getFileName().toString().startsWith(".ferry-")).toList()).as("no marker in the source").isEmpty();
    }
  }

  /**
   * Issue 45: keys that differ only in case, into a folder that folds case below a root that does not: both got one
   * temp file and one final file, and one was reported copied and verified while its name held the other's bytes. Both
   * are rejected now; beside them, the same pair in a folder that keeps case is copied whole.
   */
  @Test
  void keysThatDifferOnlyInCaseInAFolderThatFoldsCaseAreBothRejected() throws Exception {
    io.ferry.support.CaseFoldingMount.assumeAvailable();
    String bucket = name("case");
    Map<String, String> source = seed(bucket, Map.of("sub/README", 1000, "sub/readme", 2000, "sub/other.txt", 3000, "top/README",
        4000, "top/readme", 5000));
    Path dest = Files.createDirectories(work.resolve(bucket));
    try (var mount = io.ferry.support.CaseFoldingMount.at(dest.resolve("sub"), work.resolve(bucket + "-backing"))) {
      Run run = migrate(job(bucket, dest, "ferry.job.name = " + bucket));
      assertThat(run.summary().objects().failed()).as(run.out()).isEqualTo(2);
      assertThat(run.summary().failures()).extracting(f -> f.key()).containsExactlyInAnyOrder("sub/README", "sub/readme");
      assertThat(run.summary().failures()).allSatisfy(f -> assertThat(f.error()).contains("only in case"));
      Map<String, String> copied = Trees.digests(dest);
      assertThat(copied).containsEntry("sub/other.txt", source.get("sub/other.txt")).containsEntry("top/README", source.get("top/README"))
          .containsEntry("top/readme", source.get("top/readme")).doesNotContainKeys("sub/README", "sub/readme");
      assertThat(Trees.tempFiles(dest)).isEmpty();
    }
  }

  /**
   * Issue 47: direct I/O asked of a destination whose filesystem refuses O_DIRECT (a FUSE mount: this kernel's tmpfs
   * takes it): the run writes through the page cache and says so; a folder below a root that takes it, on a filesystem
   * that refuses it, has its files written through the page cache, the rest around it. Every copy by content, parts
   * and tails off any block's edge among them.
   */
  @Test
  void directIoWhereAFilesystemRefusesItFallsBackAndSaysSo() throws Exception {
    io.ferry.support.CaseFoldingMount.assumeAvailable();
    String bucket = name("direct");
    Map<String, String> source = seed(bucket, Map.of("fuse/big.bin", (3 << 20) + 4097, "fuse/small.bin", 5000, "disk/big.bin",
        (3 << 20) + 1, "disk/small.bin", 4096, "top.bin", 10_001));
    String parts = "ferry.destination.direct-io = true, ferry.plan.part-size = 1000001";
    Path whole = work.resolve(bucket + "-whole");
    try (var mount = io.ferry.support.CaseFoldingMount.at(whole, work.resolve(bucket + "-whole-backing"))) {
      Run run = migrate(job(bucket, whole, "ferry.job.name = " + bucket + "-whole, " + parts));
      assertThat(run.out()).contains("refuses O_DIRECT").contains("(page cache: its filesystem refuses direct I/O)");
      assertThat(run.summary().destination()).endsWith("(page cache: its filesystem refuses direct I/O)");
      assertThat(run.summary().objects().failed()).as(run.out()).isZero();
      assertThat(Trees.digests(whole)).isEqualTo(source);
    }
    Path below = Files.createDirectories(work.resolve(bucket + "-below"));
    try (var mount = io.ferry.support.CaseFoldingMount.at(below.resolve("fuse"), work.resolve(bucket + "-below-backing"))) {
      Run run = migrate(job(bucket, below, "ferry.job.name = " + bucket + "-below, " + parts));
      assertThat(run.summary().destination()).isEqualTo(below.toString()).doesNotContain("page cache");
      assertThat(run.summary().objects().failed()).as(run.out()).isZero();
      assertThat(Trees.digests(below)).isEqualTo(source);
      assertThat(Trees.tempFiles(below)).isEmpty();
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
