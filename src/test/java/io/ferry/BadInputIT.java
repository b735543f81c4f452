package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.support.SeedData;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line against bad input and real faults: each ends with the documented exit code, one clear message,
 * no secret in the output, and nothing half-written at a final name.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputIT {
  private static final long MIB = 1L << 20;
  @TempDir static Path work;
  private S3Backend s3;
  private FaultProxy proxy;
  private SparkSession spark;
  private Map<String, String> faulty;

  /** The output of one command. */
  record Run(int code, String out, String err) {}

  @BeforeAll
  void start() throws Exception {
    s3 = S3Backend.start(work);
    proxy = FaultProxy.before(s3.endpoint());
    spark = LocalSpark.start("BadInputIT");
    SeedData.upload(s3.client(), "good", SeedData.mix(3 * MIB, 5));
    List<SeedData.Spec> specs = new ArrayList<>();
    specs.add(new SeedData.Spec("big.bin", 6 * MIB, 11));
    specs.add(new SeedData.Spec("split.bin", 20 * MIB, 12));
    for (int i = 0; i < 5; i++) specs.add(new SeedData.Spec("small-" + i, 1024, 20 + i));
    faulty = SeedData.upload(s3.client(), "faulty", specs);
  }

  @AfterAll
  void stop() throws Exception {
    if (spark != null) spark.stop();
    if (proxy != null) proxy.close();
    if (s3 != null) s3.close();
  }

  private Run ferry(String name, String hocon, String... args) throws Exception {
    Path conf = Jobs.file(work.resolve("conf"), name + ".conf", hocon);
    List<String> argv = new ArrayList<>(List.of("migrate", conf.toString()));
    argv.addAll(List.of(args));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Ferry.run(argv.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    Run run = new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    assertThat(run.out() + run.err()).as("no secret in the output").doesNotContain(s3.secret());
    return run;
  }

  private String secret() {
    return "-Dferry.source.credentials.secret-access-key=" + s3.secret();
  }

  private String job(String bucket, Path destination) {
    return Jobs.hocon(s3.endpoint(), s3.identity(), bucket, destination, work.resolve("reports"), "");
  }

  @Test
  void aMissingBucketEndsTheJobWithOneClearMessageAndWritesNothing() throws Exception {
    Path destination = work.resolve("missing-bucket");
    Run run = ferry("missing", job("no-such-bucket", destination), secret());
    assertThat(run.code()).isEqualTo(Ferry.JOB_FAILED);
    assertThat(run.err().strip()).startsWith("ferry: cannot list s3://no-such-bucket/").contains("NoSuchBucket (404)")
        .doesNotContain("\n");
    assertThat(Trees.digests(destination)).isEmpty();
    assertThat(Trees.tempFiles(destination)).isEmpty();
  }

  @Test
  void aWrongSecretKeyIsNamedAndNeverPrinted() throws Exception {
    Path destination = work.resolve("wrong-secret");
    String wrong = "wrong-secret-0123456789abcdef";
    Run run = ferry("wrong-secret", job("good", destination), "-Dferry.source.credentials.secret-access-key=" + wrong);
    assertThat(run.code()).isEqualTo(Ferry.JOB_FAILED);
    assertThat(run.err()).contains("SignatureDoesNotMatch").contains("secret access key is wrong").doesNotContain(wrong);
    assertThat(Trees.digests(destination)).isEmpty();
  }

  /**
   * Issue 45: wrong keys on a bucket source printed 119 lines, 102 of them Spark's stack frames (the listing's task
   * failures), before Ferry's one line. Run as jobs/migrate.sh runs it (its logging): at most three lines on the console,
   * the last naming the log that holds Spark's task failures.
   */
  @Test
  void wrongKeysPrintOneClearLineAndSparksStackTracesGoToTheLogItNames() throws Exception {
    Path conf = Jobs.file(work.resolve("conf"), "wrong-keys.conf", job("good", work.resolve("wrong-keys"))
        + "ferry.source.credentials.secret-access-key = wrong-secret-key\n");
    Path console = work.resolve("wrong-keys.console");
    Path log = work.resolve("logs/wrong-keys.log");
    Process p = io.ferry.support.FerryProcess.start(conf, console, Map.of(), List.of("-Dlog4j2.configurationFile="
        + Path.of("conf/log4j2.properties").toAbsolutePath(), "-Dferry.log.file=" + log), "migrate");
    assertThat(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    String out = Files.readString(console);
    assertThat(p.exitValue()).as(out).isEqualTo(Ferry.JOB_FAILED);
    List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
    assertThat(lines).as(out).hasSizeLessThanOrEqualTo(3);
    assertThat(out).contains("SignatureDoesNotMatch (403)").contains("Spark's log of it").contains(log.toString())
        .doesNotContain("\tat ").doesNotContain("TaskSetManager");
    assertThat(Files.readString(log)).as("the task failures, stack traces and all").contains("TaskSetManager").contains("\tat ");
  }

  @Test
  void badHoconIsAConfigurationErrorThatNamesTheKey() throws Exception {
    Run syntax = ferry("syntax", "ferry { source { bucket = \n");
    assertThat(syntax.code()).isEqualTo(Ferry.BAD_CONFIG);
    assertThat(syntax.err()).contains("cannot parse").contains("syntax.conf");

    Path destination = work.resolve("typo");
    Run typo = ferry("typo", job("good", destination) + "ferry.copy.stream-per-task = 4\nferry.plan.part-size = huge\n", secret());
    assertThat(typo.code()).isEqualTo(Ferry.BAD_CONFIG);
    assertThat(typo.err())
        .contains("the job configuration has 2 problems")
        .containsPattern("ferry.copy.stream-per-task \\(.*typo.conf: 14\\) is not a Ferry setting: "
            + "did you mean ferry.copy.streams-per-task\\?")
        .containsPattern("ferry.plan.part-size = huge \\(.*typo.conf: 15\\) is not auto, or a size such as 64MiB");
    assertThat(Files.exists(destination)).isFalse();

    Run usage = ferry("usage", "", "extra-argument");
    assertThat(usage.code()).isEqualTo(Ferry.BAD_CONFIG);
    assertThat(usage.err()).startsWith("usage: ferry <command> <job.conf>");
  }

  @Test
  void anUnwritableDestinationEndsTheJobBeforeCopying() throws Exception {
    Path file = Files.writeString(work.resolve("a-regular-file"), "not a directory");
    Run run = ferry("unwritable", job("good", file.resolve("sub")), secret());
    assertThat(run.code()).isEqualTo(Ferry.JOB_FAILED);
    assertThat(run.err()).contains("ferry.destination.path = " + file.resolve("sub") + " cannot be created");
    assertThat(file).hasContent("not a directory");
  }

  @Test
  void connectionsResetMidBodyAreResumedFromTheLastByte() throws Exception {
    Path destination = work.resolve("resets");
    // two GETs of the object in parts (its ranges 8, 8 and 4 MiB) die after ~2 MiB: every second GET of any object, as
    // before, hit only small ones in some orders of the concurrent GETs (a run with no retry, which this test failed)
    proxy.inject(Kind.GET_OBJECT, "split.bin", new Fault.ResetAfterResponseBytes(2 * MIB + 12345), 2);
    int before = proxy.injected(Fault.ResetAfterResponseBytes.class);
    try {
      Run run = ferry("resets", Jobs.hocon(proxy.endpoint(), s3.identity(), "faulty", destination, work.resolve("reports"),
          "ferry.copy.retries = 8"), secret());
      assertThat(run.code()).as(run.out() + run.err()).isEqualTo(Ferry.OK);
      assertThat(run.out()).containsPattern("ranges +\\d+ \\(1 objects split\\), [1-9]\\d* retries");
    } finally {
      proxy.clear();
    }
    assertThat(proxy.injected(Fault.ResetAfterResponseBytes.class)).isGreaterThan(before);
    assertThat(Trees.digests(destination)).isEqualTo(new TreeMap<>(faulty));
    assertThat(Trees.tempFiles(destination)).isEmpty();
  }

  @Test
  void aStalledStreamIsAbandonedAfterTheStallTimeoutAndResumed() throws Exception {
    Path destination = work.resolve("stalls");
    proxy.inject(Kind.GET_OBJECT, "split.bin", new Fault.StallAfterResponseBytes(MIB + 777), 2); // two of its GETs go silent after ~1 MiB
    int before = proxy.injected(Fault.StallAfterResponseBytes.class);
    Run run;
    try {
      run = ferry("stalls", Jobs.hocon(proxy.endpoint(), s3.identity(), "faulty", destination, work.resolve("reports"),
          "ferry.copy { retries = 8, stall-timeout = 1s }"), secret());
    } finally {
      proxy.clear();
    }
    assertThat(run.code()).as(run.out() + run.err()).isEqualTo(Ferry.OK);
    assertThat(proxy.injected(Fault.StallAfterResponseBytes.class)).isGreaterThan(before);
    assertThat(run.out()).containsPattern("ranges +\\d+ \\(1 objects split\\), [1-9]\\d* retries");
    assertThat(Trees.digests(destination)).isEqualTo(new TreeMap<>(faulty));
  }

  @Test
  void anObjectThatKeepsFailingIsAbortedAndTheRestIsCopied() throws Exception {
    Path destination = work.resolve("failing");
    Files.createDirectories(destination);
    Files.writeString(destination.resolve("big.bin"), "the previous version survives");
    proxy.injectAlways(Kind.GET_OBJECT, new Fault.ResetAfterResponseBytes(MIB)); // objects above 1 MiB cannot finish
    Run run;
    try {
      run = ferry("failing", Jobs.hocon(proxy.endpoint(), s3.identity(), "faulty", destination, work.resolve("reports"),
          "ferry.copy.retries = 1"), secret());
    } finally {
      proxy.clear();
    }
    assertThat(run.code()).as(run.out() + run.err()).isEqualTo(Ferry.SOME_FAILED);
    assertThat(run.out()).contains("finished WITH FAILURES").contains("2 failed")
        .contains("big.bin: part 1 of 1: gave up after 2 attempts");
    Map<String, String> copied = Trees.digests(destination);
    assertThat(copied).doesNotContainKey("split.bin").containsEntry("small-0", faulty.get("small-0")).hasSize(6);
    assertThat(destination.resolve("big.bin")).hasContent("the previous version survives");
    assertThat(Trees.tempFiles(destination)).isEmpty();
  }
}
