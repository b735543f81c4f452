package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.support.WanEmulator;
import io.ferry.support.SeedData;
import io.ferry.ledger.Ledger;
import io.ferry.support.Buckets;
import io.ferry.support.FaultProxy;
import io.ferry.support.FerryProcess;
import io.ferry.support.Jobs;
import io.ferry.support.S3Backend;
import io.ferry.support.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A crash mid-copy, then a rerun, as users meet them: the driver (a JVM of its own, local Spark) killed with SIGKILL
 * while the parts of a large object are being copied through a slow link, then the same job run again. The rerun
 * resumes the uploads and temp files the ledger names, copies only the parts that had not landed, and leaves no
 * upload open and no temp file; {@code cleanup} instead removes what the crash left.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResumeIT {
  private static final long MIB = 1L << 20;
  private static final int PARTS = 24;
  private static final int STREAMS = 2;
  @TempDir static Path work;
  private S3Backend s3;
  private WanEmulator slow;
  private FaultProxy counter;
  private FaultProxy fast;
  private Map<String, String> source;

  @BeforeAll
  void start() throws Exception {
    s3 = S3Backend.start(work.resolve("s3"));
    source = new TreeMap<>(SeedData.upload(s3.client(), "src", List.of(new SeedData.Spec("big.bin", PARTS * 5 * MIB - 3, 1),
        new SeedData.Spec("small-1", 10_000, 2), new SeedData.Spec("small-2", 0, 3))));
    slow = new WanEmulator(0, Integer.parseInt(s3.endpoint().replaceAll(".*:", "")), 6, 0); // 6 MB/s per connection
    counter = new FaultProxy(slow.port()); // counts the GETs that reach the slow link
    fast = FaultProxy.before(s3.endpoint()); // the rerun's source: another address than the destination's, as in the crash
  }

  @AfterAll
  void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {counter, fast, slow, s3}) if (c != null) c.close();
  }

  private String job(String name, String sourceEndpoint, String to) {
    return job(name, sourceEndpoint, to, "5MiB");
  }

  private String job(String name, String sourceEndpoint, String to, String partSize) {
    return job(name, sourceEndpoint, to, partSize, "src", "");
  }

  private String job(String name, String sourceEndpoint, String to, String partSize, String bucket, String extra) {
    String destination = to.equals("bucket")
        ? """
            ferry.destination { type = s3, endpoint = "%s", bucket = %s
              credentials { access-key-id = "%s", secret-access-key = ${?DST_SECRET} } }
            """.formatted(s3.endpoint(), name, s3.identity())
        : "";
    return Jobs.hocon(sourceEndpoint, s3.identity(), bucket, work.resolve(name + "-files"), work.resolve("reports"), """
        ferry.job.name = %s
        ferry.plan.part-size = %s
        ferry.copy.streams-per-task = %d
        ferry.spark.master = "local[1]"
        ferry.source.credentials.secret-access-key = ${?SRC_SECRET}
        %s
        %s
        """.formatted(name, partSize, STREAMS, destination, extra));
  }

  /** Ferry in a JVM of its own, as jobs/migrate.sh starts it. */
  private Process ferry(Path conf, Path log, String... command) throws Exception {
    return FerryProcess.start(conf, log, Map.of("SRC_SECRET", s3.secret(), "DST_SECRET", s3.secret()), command);
  }

  private Ledger ledger(String job) throws Exception {
    Configuration conf = new Configuration();
    return new Ledger(Ledger.directory(work.resolve("reports").toString(), job, conf), conf);
  }

  private int copiedParts(String job) throws Exception {
    return ledger(job).read().copied().values().stream().mapToInt(Map::size).sum();
  }

  /** Runs the job through the slow link and kills the driver with SIGKILL once {@code atLeast} parts are in the ledger. */
  private int crash(String name, String to, int atLeast) throws Exception {
    return crash(name, Jobs.file(work.resolve("conf"), name + ".conf", job(name, counter.endpoint(), to)), atLeast);
  }

  /** Runs job {@code name} from {@code conf} and kills the driver with SIGKILL once {@code atLeast} parts are in the ledger. */
  private int crash(String name, Path conf, int atLeast) throws Exception {
    Process run = ferry(conf, work.resolve(name + "-crash.log"), "migrate");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (copiedParts(name) < atLeast) {
      assertThat(run.isAlive()).as("the run ended before the kill: " + Files.readString(work.resolve(name + "-crash.log"))).isTrue();
      assertThat(System.nanoTime()).as("parts landed").isLessThan(deadline);
      Thread.sleep(100);
    }
    run.destroyForcibly(); // SIGKILL: no finally block, no shutdown hook runs
    assertThat(run.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return copiedParts(name);
  }

  private int gets(String object) {
    Matcher m = Pattern.compile("GET /src/" + Pattern.quote(object) + "[ ?]").matcher(counter.requests());
    int n = 0;
    while (m.find()) n++;
    return n;
  }

  @ParameterizedTest(name = "to {0}")
  @ValueSource(strings = {"files", "bucket"})
  void aRerunAfterTheDriverWasKilledCopiesOnlyThePartsThatHadNotLanded(String to) throws Exception {
    String name = "resume-" + to;
    if (to.equals("bucket")) s3.client().createBucket(b -> b.bucket(name));
    int getsBefore = gets("big.bin");
    int landed = crash(name, to, 6);
    int started = gets("big.bin") - getsBefore; // the parts whose GETs went out before the kill
    int inFlight = started - landed;
    assertThat(inFlight).as("at most one part per stream was in flight").isBetween(0, STREAMS);
    if (to.equals("bucket")) assertThat(Buckets.openUploads(s3.client(), name)).as("the crash left its upload open").isEqualTo(1);
    else assertThat(Trees.tempFiles(work.resolve(name + "-files"))).as("the crash left its temp file").isNotEmpty();

    String out = rerunCompletes(name, to, Jobs.file(work.resolve("conf"), name + "-rerun.conf", job(name, fast.endpoint(), to)),
        source);
    assertThat(out).contains("RESUME 1 objects opened by earlier runs, " + landed + " of their parts already copied");
    // Recorded: the parts copied twice are the ones in flight at the kill (the rerun copied PARTS - landed).
    Files.writeString(work.resolve(name + "-recopied.txt"), "parts " + PARTS + ", landed before the kill " + landed
        + ", in flight at the kill (copied twice) " + inFlight + " = " + inFlight * 5 + " MiB\n");
    System.out.printf("ResumeIT to %s: %d parts, %d landed before the kill, %d in flight (re-copied, %d MiB)%n", to, PARTS, landed,
        inFlight, inFlight * 5);
  }

  /**
   * Reruns job {@code name} from {@code conf} and checks it completed: exit 0, the destination byte-identical to
   * {@code expected}, no upload or temp file left, the ledger empty. Returns its console.
   */
  private String rerunCompletes(String name, String to, Path conf, Map<String, String> expected) throws Exception {
    Process rerun = ferry(conf, work.resolve(name + "-rerun.log"), "migrate");
    assertThat(rerun.waitFor(3, TimeUnit.MINUTES)).isTrue();
    String out = Files.readString(work.resolve(name + "-rerun.log"));
    assertThat(rerun.exitValue()).as(out).isZero();
    Map<String, String> copied = to.equals("bucket") ? Buckets.digests(s3.client(), name, "") : Trees.digests(work.resolve(name
        + "-files"));
    assertThat(copied).isEqualTo(expected);
    if (to.equals("bucket")) assertThat(Buckets.openUploads(s3.client(), name)).isZero();
    else assertThat(Trees.tempFiles(work.resolve(name + "-files"))).isEmpty();
    assertThat(ledger(name).read().isEmpty()).as("the ledger keeps nothing open").isTrue();
    return out;
  }

  /**
   * The rerun cuts the object into as many parts of another size (5200 KiB: 24 parts either way), so a part number
   * names other bytes: nothing the crash left is resumed, and the object arrives whole (it once came out 24 parts of
   * the old size's first bytes and the new size's rest, and passed).
   */
  @ParameterizedTest(name = "to {0}")
  @ValueSource(strings = {"files", "bucket"})
  void aRerunWithAnotherPartSizeResumesNothingThatNoLongerTilesTheObject(String to) throws Exception {
    String name = "resize-" + to;
    if (to.equals("bucket")) s3.client().createBucket(b -> b.bucket(name));
    crash(name, to, 3);
    Path conf = Jobs.file(work.resolve("conf"), name + "-rerun.conf", job(name, fast.endpoint(), to, "5200KiB"));
    Process rerun = ferry(conf, work.resolve(name + "-rerun.log"), "migrate");
    assertThat(rerun.waitFor(3, TimeUnit.MINUTES)).isTrue();
    String out = Files.readString(work.resolve(name + "-rerun.log"));
    assertThat(rerun.exitValue()).as(out).isZero();
    assertThat(out).doesNotContain("RESUME").contains("ABORT 1 objects earlier runs opened and this one does not resume");
    Map<String, String> copied = to.equals("bucket") ? Buckets.digests(s3.client(), name, "") : Trees.digests(work.resolve(name
        + "-files"));
    assertThat(copied).isEqualTo(source);
    if (to.equals("bucket")) assertThat(Buckets.openUploads(s3.client(), name)).isZero();
    else assertThat(Trees.tempFiles(work.resolve(name + "-files"))).isEmpty();
    assertThat(ledger(name).read().isEmpty()).isTrue();
  }

  /**
   * {@code plan.part-size = auto} chooses its own size (8 MiB or more, where the crashed run cut 5 MiB parts), yet the
   * object the crash left open keeps the parts it was opened with, and only those that had not landed are copied.
   */
  @ParameterizedTest(name = "to {0}")
  @ValueSource(strings = {"files", "bucket"})
  void aRerunUnderAutoPartSizeResumesAnOpenObjectInThePartsItWasOpenedWith(String to) throws Exception {
    String name = "auto-" + to;
    if (to.equals("bucket")) s3.client().createBucket(b -> b.bucket(name));
    int landed = crash(name, to, 4);
    Path conf = Jobs.file(work.resolve("conf"), name + "-rerun.conf", job(name, fast.endpoint(), to, "auto"));
    Process rerun = ferry(conf, work.resolve(name + "-rerun.log"), "migrate");
    assertThat(rerun.waitFor(3, TimeUnit.MINUTES)).isTrue();
    String out = Files.readString(work.resolve(name + "-rerun.log"));
    assertThat(rerun.exitValue()).as(out).isZero();
    assertThat(out).contains("PART SIZE auto: ").doesNotContain("PART SIZE auto: 5.0 MiB").doesNotContain("ABORT")
        .contains("RESUME 1 objects opened by earlier runs, " + landed + " of their parts already copied");
    Map<String, String> copied = to.equals("bucket") ? Buckets.digests(s3.client(), name, "") : Trees.digests(work.resolve(name
        + "-files"));
    assertThat(copied).isEqualTo(source);
    if (to.equals("bucket")) assertThat(Buckets.openUploads(s3.client(), name)).isZero();
    else assertThat(Trees.tempFiles(work.resolve(name + "-files"))).isEmpty();
    assertThat(ledger(name).read().isEmpty()).isTrue();
  }

  /**
   * A run killed between its CreateMultipartUpload and the ledger entry of its answer (or whose answer was lost)
   * leaves an upload no entry names; the ledger recorded the intent first, so cleanup aborts the uploads at that key,
   * and none at any other.
   */
  @org.junit.jupiter.api.Test
  void cleanupAbortsTheUploadsAtKeysTheJobWasOpeningAndNoOthers() throws Exception {
    String name = "intent-bucket";
    s3.client().createBucket(b -> b.bucket(name));
    String lost = s3.client().createMultipartUpload(b -> b.bucket(name).key("big.bin")).uploadId();
    String others = s3.client().createMultipartUpload(b -> b.bucket(name).key("someone-elses.bin")).uploadId();
    try (Ledger.Writer w = ledger(name).writer(io.ferry.ledger.LedgerFile.opening("run-0", 0, 1))) {
      w.intent(new Ledger.Intent("big.bin", "big.bin", "s3://" + name + "/big.bin", "run-0"));
    }
    Path conf = Jobs.file(work.resolve("conf"), name + ".conf", job(name, fast.endpoint(), "bucket"));
    Process clean = ferry(conf, work.resolve(name + "-clean.log"), "cleanup");
    assertThat(clean.waitFor(2, TimeUnit.MINUTES)).isTrue();
    String out = Files.readString(work.resolve(name + "-clean.log"));
    assertThat(clean.exitValue()).as(out).isZero();
    assertThat(out).contains("abort  s3://" + name + "/big.bin (an upload at a key this job was opening").contains(lost);
    var open = s3.client().listMultipartUploads(b -> b.bucket(name)).uploads();
    assertThat(open).extracting(u -> u.uploadId()).containsExactly(others);
    assertThat(ledger(name).read().isEmpty()).isTrue();
  }

  @ParameterizedTest(name = "to {0}")
  @ValueSource(strings = {"files", "bucket"})
  void cleanupRemovesWhatAKilledRunLeftAndNothingElse(String to) throws Exception {
    String name = "cleanup-" + to;
    Path files = work.resolve(name + "-files");
    if (to.equals("bucket")) {
      s3.client().createBucket(b -> b.bucket(name));
    } else {
      Files.createDirectories(files.resolve("sub"));
      Files.writeString(files.resolve("sub/.keep.ferry-another-job.tmp"), "not this job's");
      Files.writeString(files.resolve("mine.txt"), "a user's file");
    }
    crash(name, to, 2);
    Path conf = work.resolve("conf").resolve(name + ".conf");

    Process dry = ferry(conf, work.resolve(name + "-dry.log"), "cleanup", "--dry-run");
    assertThat(dry.waitFor(2, TimeUnit.MINUTES)).isTrue();
    String listed = Files.readString(work.resolve(name + "-dry.log"));
    assertThat(dry.exitValue()).as(listed).isZero();
    assertThat(listed).contains("would abort").contains("big.bin").contains("(dry run: nothing removed)");
    if (to.equals("bucket")) assertThat(Buckets.openUploads(s3.client(), name)).isEqualTo(1);

    Process clean = ferry(conf, work.resolve(name + "-clean.log"), "cleanup");
    assertThat(clean.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(clean.exitValue()).as(Files.readString(work.resolve(name + "-clean.log"))).isZero();
    if (to.equals("bucket")) {
      assertThat(Buckets.openUploads(s3.client(), name)).isZero();
    } else {
      assertThat(Trees.tempFiles(files)).as("only another job's temp file is left").extracting(p -> files.relativize(p).toString())
          .containsExactly("sub/.keep.ferry-another-job.tmp");
      assertThat(files.resolve("mine.txt")).hasContent("a user's file");
    }
    assertThat(ledger(name).read().isEmpty()).isTrue();
  }
}
