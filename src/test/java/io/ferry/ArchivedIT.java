package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.support.ArchiveTier;
import io.ferry.support.FaultProxy;
import io.ferry.support.LocalSpark;
import io.ferry.support.S3MockProcess;
import io.ferry.support.SeedData;
import io.ferry.support.Trees;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * Objects archived at the source (S3 Glacier Flexible Retrieval, Deep Archive), end to end, through the command line
 * as a user runs it: S3Mock lists them in their classes, and the fault proxy in front of it plays the archive tier
 * ({@link ArchiveTier}): a GET of an archived object answers 403 InvalidObjectState, RestoreObject starts a restore,
 * a HEAD tells how it goes. Each policy of {@code source.archived}, restores across reruns without paying twice, a
 * store whose HEAD tells nothing of restores, and one invocation that waits for its restores.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArchivedIT {
  private static final List<String> ARCHIVED = List.of("cold/b.bin", "cold/c.bin", "cold/d.bin");
  @TempDir static Path work;
  private S3MockProcess s3;
  private S3Client client;
  private SparkSession spark;
  private final Map<String, String> digests = new TreeMap<>();
  private int jobs;

  @BeforeAll
  void start() throws Exception {
    s3 = S3MockProcess.start(work.resolve("s3mock"));
    client = s3.client();
    spark = LocalSpark.start("ArchivedIT");
    client.createBucket(b -> b.bucket("archive-src"));
    put("hot/a.bin", 3 << 20, StorageClass.STANDARD);
    put("cold/b.bin", 2 << 20, StorageClass.GLACIER);
    put("cold/c.bin", 1000, StorageClass.DEEP_ARCHIVE);
    put("cold/d.bin", 11 << 20, StorageClass.GLACIER); // copied in 5 MiB parts once restored
  }

  private void put(String key, int size, StorageClass storageClass) {
    byte[] bytes = new byte[size];
    new Random(key.hashCode()).nextBytes(bytes);
    client.putObject(b -> b.bucket("archive-src").key(key).storageClass(storageClass), RequestBody.fromBytes(bytes));
    digests.put(key, sha(bytes));
  }

  @AfterAll
  void stop() {
    if (spark != null) spark.stop();
    if (s3 != null) s3.close();
  }

  /** By default an archived object fails the run (exit 1) and costs no request: no GET is sent for it, no restore. */
  @Test
  void byDefaultEachArchivedObjectFailsTheRunWithoutARequestAndTheRestIsCopied() throws Exception {
    try (FaultProxy proxy = FaultProxy.before(s3.endpoint())) {
      ArchiveTier tier = tier(proxy, true);
      Job job = job(proxy, "");
      Run run = job.run();
      assertThat(run.code()).as(run.out()).isEqualTo(Ferry.SOME_FAILED);
      assertThat(Trees.digests(job.destination())).isEqualTo(only("hot/a.bin"));
      for (String key : ARCHIVED) {
        assertThat(tier.refusedReads(key)).as("GETs of " + key).isZero();
        assertThat(tier.restoreRequests(key)).as("restores of " + key).isZero();
      }
      assertThat(run.out()).contains("3 archived at the source");
      assertThat(statuses(run)).isEqualTo(Map.of("hot/a.bin", "COPIED", "cold/b.bin", "FAILED", "cold/c.bin", "FAILED",
          "cold/d.bin", "FAILED"));
      assertThat(errors(run).get("cold/c.bin")).contains("DEEP_ARCHIVE").contains("source.archived = restore");
    }
  }

  /** skip: each archived object is a NOT_COPIED row, the run succeeds (exit 0), and a cut-over pass deletes nothing. */
  @Test
  void skipReportsEachArchivedObjectAndTheCutOverDeletesNothing() throws Exception {
    try (FaultProxy proxy = FaultProxy.before(s3.endpoint())) {
      ArchiveTier tier = tier(proxy, true);
      Job job = job(proxy, "ferry.source.archived = skip\nferry.destination.delete-extraneous = true");
      Path extraneous = Files.createDirectories(job.destination()).resolve("only-here.txt");
      Files.writeString(extraneous, "the destination's own");
      Run run = job.run();
      assertThat(run.code()).as(run.out()).isEqualTo(Ferry.OK);
      assertThat(statuses(run)).containsEntry("cold/b.bin", "NOT_COPIED").containsEntry("cold/d.bin", "NOT_COPIED")
          .containsEntry("hot/a.bin", "COPIED");
      assertThat(run.out()).contains("DELETE skipped: 3 objects archived at the source were not copied");
      assertThat(extraneous).exists();
      for (String key : ARCHIVED) assertThat(tier.refusedReads(key) + tier.restoreRequests(key)).as(key).isZero();
    }
  }

  /**
   * restore, across reruns: the first run requests one restore per archived object and ends with them RESTORING
   * (exit 4); a rerun while they are under way sends none; each is copied once restored, by content; and once the
   * restored copies expire, a rerun finds them unchanged at the destination and restores nothing again.
   */
  @Test
  void restoreAcrossRerunsRequestsEachOnceCopiesEachOnceRestoredAndNeverPaysTwice() throws Exception {
    try (FaultProxy proxy = FaultProxy.before(s3.endpoint())) {
      ArchiveTier tier = tier(proxy, true);
      Job job = job(proxy, "ferry.source { archived = restore, restore { tier = Bulk, days = 2 } }");

      Run first = job.run();
      assertThat(first.code()).as(first.out()).isEqualTo(Ferry.PENDING);
      assertThat(first.out()).contains("RESTORE 3 archived objects at the source: 3 restores requested now (Bulk, 2 days)")
          .contains("archived     3 archived at the source and not copied: 3 restoring");
      assertThat(Trees.digests(job.destination())).isEqualTo(only("hot/a.bin"));
      assertThat(statuses(first)).containsEntry("cold/b.bin", "RESTORING").containsEntry("cold/d.bin", "RESTORING");

      Run second = job.run();
      assertThat(second.code()).as(second.out()).isEqualTo(Ferry.PENDING);
      assertThat(second.out()).contains("0 restores requested now");

      tier.thaw("cold/b.bin");
      tier.thaw("cold/c.bin");
      Run third = job.run();
      assertThat(third.code()).as(third.out()).isEqualTo(Ferry.PENDING);
      assertThat(Trees.digests(job.destination())).isEqualTo(only("hot/a.bin", "cold/b.bin", "cold/c.bin"));

      tier.thaw("cold/d.bin");
      Run fourth = job.run();
      assertThat(fourth.code()).as(fourth.out()).isEqualTo(Ferry.OK);
      assertThat(Trees.digests(job.destination())).isEqualTo(digests);

      ARCHIVED.forEach(tier::expire);
      Run fifth = job.run();
      assertThat(fifth.code()).as(fifth.out()).isEqualTo(Ferry.OK);
      assertThat(fifth.out()).contains("4 skipped unchanged").doesNotContain("RESTORE ");
      // verify compares archived sources by size: their bytes cannot be read, and are not asked for
      Run verify = job.command("verify");
      assertThat(verify.code()).as(verify.out()).isEqualTo(Ferry.OK);
      assertThat(verify.out()).as("only the object not archived is read").contains("4 keys in all, 1 ranges to read")
          .containsPattern("unproven +3");
      // ... and so cannot prove them: a manifest's proof takes a checksum of each side
      Run proof = job.command("verify", "--manifest");
      assertThat(proof.code()).as(proof.out()).isEqualTo(Ferry.SOME_FAILED);
      assertThat(proof.out()).contains("NOT PROVEN").contains("1 of 4 source objects proven")
          .contains("UNPROVEN cold/b.bin the source is archived");
      for (String key : ARCHIVED) {
        assertThat(tier.restoreRequests(key)).as("restores of " + key).isEqualTo(1);
        assertThat(tier.refusedReads(key)).as("GETs of " + key + " while archived").isZero();
      }
      assertThat(Trees.tempFiles(job.destination())).isEmpty();
    }
  }

  /**
   * A store whose HEAD tells nothing of restores: the ledger's record of the request keeps a rerun from sending
   * another, and its first byte tells when it is restored, so the run that finds it readable copies it.
   */
  @Test
  void whereTheStoreDoesNotShowRestoresTheLedgerKeepsARerunFromRequestingAgainAndTheFirstByteTellsWhenToCopy() throws Exception {
    try (FaultProxy proxy = FaultProxy.before(s3.endpoint())) {
      ArchiveTier tier = tier(proxy, false);
      Job job = job(proxy, "ferry.source.archived = restore");
      assertThat(job.run().code()).isEqualTo(Ferry.PENDING);
      Run rerun = job.run();
      assertThat(rerun.code()).as(rerun.out()).isEqualTo(Ferry.PENDING);
      assertThat(errors(rerun).get("cold/b.bin")).contains("a restore was requested by run");
      ARCHIVED.forEach(tier::thaw);
      Run thawed = job.run();
      assertThat(thawed.code()).as(thawed.out()).isEqualTo(Ferry.OK);
      assertThat(thawed.out()).contains("3 restored and copied by this run");
      assertThat(Trees.digests(job.destination())).isEqualTo(digests);
      for (String key : ARCHIVED) assertThat(tier.restoreRequests(key)).as("restores of " + key).isEqualTo(1);
    }
  }

  /** One invocation with restore.wait: it copies what it can, waits, lists again, and ends once every object is copied (exit 0). */
  @Test
  void oneInvocationThatWaitsCopiesEachObjectOnceRestoredAndEndsComplete() throws Exception {
    try (FaultProxy proxy = FaultProxy.before(s3.endpoint())) {
      ArchiveTier tier = tier(proxy, true);
      tier.thawAfterHeads(1); // restored by the time the next listing asks
      Job job = job(proxy, "ferry.source { archived = restore, restore { wait = 5m, poll = 200ms } }");
      Run run = job.run();
      assertThat(run.code()).as(run.out()).isEqualTo(Ferry.OK);
      assertThat(run.out()).contains("WAIT  3 objects restoring at the source: listing again in PT0.2S");
      assertThat(Trees.digests(job.destination())).isEqualTo(digests);
      for (String key : ARCHIVED) assertThat(tier.restoreRequests(key)).as("restores of " + key).isEqualTo(1);
    }
  }

  /** plan counts the archived objects and prices their restore before anything is sent. */
  @Test
  void planCountsAndPricesTheRestores() throws Exception {
    try (FaultProxy proxy = FaultProxy.before(s3.endpoint())) {
      ArchiveTier tier = tier(proxy, true);
      Job job = job(proxy, "ferry.source { archived = restore, restore.tier = Standard }");
      Run plan = job.command("plan");
      assertThat(plan.code()).as(plan.out()).isEqualTo(Ferry.OK);
      assertThat(plan.out()).contains("archived  3 objects archived at the source (each asked a HEAD by the listing): 3 restores to"
          + " request, 0 under way").contains("restore   3 RestoreObject, 13.0 MiB (Standard, 7 days)").contains("ready in 3-5 hours");
      for (String key : ARCHIVED) assertThat(tier.restoreRequests(key)).isZero();
    }
  }

  private ArchiveTier tier(FaultProxy proxy, boolean showsRestores) {
    ArchiveTier tier = new ArchiveTier("archive-src", showsRestores);
    ARCHIVED.forEach(tier::archive);
    proxy.decide(tier);
    return tier;
  }

  private Map<String, String> only(String... keys) {
    return List.of(keys).stream().collect(Collectors.toMap(k -> k, digests::get, (a, b) -> a, TreeMap::new));
  }

  /** A job of its own (destination, reports, ledger) reading through {@code proxy}. */
  private Job job(FaultProxy proxy, String extra) throws Exception {
    String name = "archived-" + ++jobs;
    Path destination = work.resolve(name);
    Path file = work.resolve(name + ".conf");
    Files.writeString(file, """
        ferry {
          job.name = %1$s
          source { endpoint = "%2$s", bucket = archive-src, credentials.access-key-id = any }
          destination.path = "%3$s"
          report.path = "%4$s"
          plan { part-size = 5MiB }
          copy { retries = 2, backoff = 20ms, max-backoff = 200ms }
        }
        %5$s
        """.formatted(name, proxy.endpoint(), destination, work.resolve("reports"), extra));
    return new Job(file, destination, work.resolve("reports").resolve(name));
  }

  private record Run(int code, String out, Path report) {}

  private record Job(Path file, Path destination, Path reports) {
    Run run() throws Exception {
      return command("migrate");
    }

    Run command(String command, String... more) throws Exception {
      List<Path> before = runFolders();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      List<String> args = new ArrayList<>(List.of(command, file.toString(), "-Dferry.source.credentials.secret-access-key=any"));
      args.addAll(List.of(more));
      int code = Ferry.run(args.toArray(String[]::new),
          new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(out, true, StandardCharsets.UTF_8));
      // this run's report: run ids order by second only, and two runs of a test may start in one
      List<Path> made = runFolders().stream().filter(p -> !before.contains(p)).toList();
      return new Run(code, out.toString(StandardCharsets.UTF_8), made.isEmpty() ? null : made.get(made.size() - 1));
    }

    private List<Path> runFolders() throws java.io.IOException {
      if (!Files.isDirectory(reports)) return List.of();
      try (var runs = Files.list(reports)) {
        return runs.filter(p -> Files.exists(p.resolve("summary.json"))).sorted().toList();
      }
    }
  }

  private List<Row> rows(Run run) {
    return spark.read().option("header", true).option("escape", "\"").csv(run.report().resolve("objects.csv").toString()).collectAsList();
  }

  private Map<String, String> statuses(Run run) {
    return rows(run).stream().collect(Collectors.toMap(r -> r.getAs("key"), r -> r.getAs("status"), (a, b) -> a, TreeMap::new));
  }

  private Map<String, String> errors(Run run) {
    return rows(run).stream().collect(Collectors.toMap(r -> r.getAs("key"), r -> r.getAs("error") == null ? "" : r.getAs("error"),
        (a, b) -> a, TreeMap::new));
  }

  private static String sha(byte[] bytes) {
    return java.util.HexFormat.of().formatHex(SeedData.sha256().digest(bytes));
  }
}
