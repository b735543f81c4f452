package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.config.MigrationConfig;
import io.ferry.ledger.DeltaState;
import io.ferry.ledger.Ledger;
import io.ferry.report.RunSummary;
import io.ferry.spark.JobFailure;
import io.ferry.spark.run.MigrationJob;
import io.ferry.support.ElasticMqProcess;
import io.ferry.support.FaultProxy;
import io.ferry.support.FerryProcess;
import io.ferry.support.Jobs;
import io.ferry.support.LocalSpark;
import io.ferry.support.S3Backend;
import io.ferry.support.SeedData;
import io.ferry.support.Trees;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Delta passes from S3 event notifications ({@code source.changes = events}): a bulk copy, then writers change the
 * source and their events reach an SQS queue (ElasticMQ in a child JVM) or a JSON-lines file; the pass looks up only the
 * keys the events name (no LIST of either side), copies what changed, deletes what was removed under the cut-over's rules,
 * and deletes its messages only once that is committed. Duplicated, late and foreign events change nothing; a change
 * without an event is left for a full pass, which repairs it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeltaIT {
  @TempDir static Path work;
  private S3Backend s3;
  private ElasticMqProcess queues;
  private FaultProxy counter;
  private SparkSession spark;
  private final AtomicLong sequencer = new AtomicLong(0x0055AED6DCD90281L);
  private final AtomicLong inventories = new AtomicLong();

  @BeforeAll
  void start() throws Exception {
    s3 = S3Backend.start(work.resolve("s3"));
    queues = ElasticMqProcess.start(work.resolve("queues"));
    counter = FaultProxy.before(s3.endpoint()); // counts what reaches the source
    spark = LocalSpark.start("DeltaIT");
  }

  @AfterAll
  void stop() throws Exception {
    if (spark != null) spark.stop();
    for (AutoCloseable c : new AutoCloseable[] {counter, queues, s3}) if (c != null) c.close();
  }

  private void seed(String bucket) {
    SeedData.upload(s3.client(), bucket, List.of(new SeedData.Spec("a.txt", 1_000, 1), new SeedData.Spec("docs/b.bin", 300_000, 2),
        new SeedData.Spec("docs/c.txt", 5, 3), new SeedData.Spec("lost.txt", 70, 4), new SeedData.Spec("tmp/skip.txt", 9, 5),
        new SeedData.Spec("docs/d e+f.txt", 11, 6)));
  }

  private String job(String name, String bucket, String extra) {
    return Jobs.hocon(counter.endpoint(), s3.identity(), bucket, work.resolve(name + "-files"), work.resolve("reports"), """
        ferry.job.name = %s
        ferry.spark.master = "local[2]"
        ferry.source.excludes = ["tmp/**"]
        ferry.destination { delete-extraneous = true, max-delete = 10 }
        %s
        """.formatted(name, extra));
  }

  private RunSummary run(String hocon, ByteArrayOutputStream out) throws Exception {
    MigrationConfig config = io.ferry.config.ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString(hocon),
        Map.of("ferry.source.credentials.secret-access-key", s3.secret()));
    return MigrationJob.run(config, JavaSparkContext.fromSparkContext(spark.sparkContext()), new PrintStream(out, true,
        StandardCharsets.UTF_8));
  }

  /** A record as AWS writes it: the key form-encoded, a sequencer that grows with each event. */
  private String record(String bucket, String name, String key, long size, String etag) {
    String object = "\"key\": \"" + URLEncoder.encode(key, StandardCharsets.UTF_8) + "\""
        + (size >= 0 ? ", \"size\": " + size + ", \"eTag\": \"" + etag + "\"" : "")
        + ", \"sequencer\": \"" + Long.toHexString(sequencer.incrementAndGet()).toUpperCase() + "\"";
    return """
        {"eventVersion": "2.1", "eventSource": "aws:s3", "awsRegion": "us-east-1", "eventName": "%s",
         "s3": {"s3SchemaVersion": "1.0", "bucket": {"name": "%s"}, "object": {%s}}}""".formatted(name, bucket, object)
        .replace("\n", "");
  }

  private static String body(String... records) {
    return "{\"Records\": [" + String.join(",", records) + "]}";
  }

  /** Writes a key at the source: its event. */
  private String put(String bucket, String key, String text) {
    String etag = s3.client().putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(text)).eTag().replace("\"", "");
    return record(bucket, "ObjectCreated:Put", key, text.getBytes(StandardCharsets.UTF_8).length, etag);
  }

  /** Removes a key at the source: its event. */
  private String remove(String bucket, String key) {
    s3.client().deleteObject(b -> b.bucket(bucket).key(key));
    return record(bucket, "ObjectRemoved:Delete", key, -1, "");
  }

  private static Map<String, String> sourceDigests(S3Client client, String bucket) {
    Map<String, String> all = new TreeMap<>(io.ferry.support.Buckets.digests(client, bucket, ""));
    all.keySet().removeIf(k -> k.startsWith("tmp/"));
    return all;
  }

  private static long waiting(SqsClient sqs, String url) {
    Map<QueueAttributeName, String> a = sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNames(
        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
    return Long.parseLong(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
        + Long.parseLong(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
  }

  private static long visible(SqsClient sqs, String url) {
    return Long.parseLong(sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
        .attributes().get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
  }

  @Test
  void aPassFromAQueueCopiesWhatChangedDeletesWhatWasRemovedAndListsNothing() throws Exception {
    seed("live");
    Path files = work.resolve("queue-files");
    String url = queues.createQueue("live-changes", Duration.ofSeconds(30));
    String listing = job("queue", "live", "");
    assertThat(run(listing, new ByteArrayOutputStream()).objects().failed()).isZero(); // the bulk copy
    assertThat(Trees.digests(files)).isEqualTo(sourceDigests(s3.client(), "live"));

    List<String> bodies = new ArrayList<>();
    String overwrite = put("live", "a.txt", "a, written again");
    bodies.add(body(overwrite, put("live", "docs/new one.txt", "new")));
    bodies.add(body(remove("live", "docs/c.txt")));
    bodies.add(body(overwrite)); // delivered twice
    bodies.add(body(put("live", "tmp/skip.txt", "excluded by the job's globs")));
    bodies.add(body(record("another-bucket", "ObjectCreated:Put", "a.txt", 1, "x")));
    bodies.add("{\"Service\": \"Amazon S3\", \"Event\": \"s3:TestEvent\", \"Bucket\": \"live\"}");
    bodies.add("not an event");
    s3.client().putObject(b -> b.bucket("live").key("lost.txt"), RequestBody.fromString("changed, its event lost"));
    try (SqsClient sqs = queues.client()) {
      for (String b : bodies) sqs.sendMessage(r -> r.queueUrl(url).messageBody(b));

      String delta = job("queue", "live", "ferry.source { changes = events, events.queue = \"" + url + "\" }");
      int lists = counter.seen(FaultProxy.Kind.LIST_OBJECTS);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      RunSummary summary = run(delta, out);
      String console = out.toString(StandardCharsets.UTF_8);
      assertThat(console).contains("EVENTS 7 messages, 6 changes: 3 keys to look up (1 last removed), 1 superseded by a later change"
          + " of their key, 2 outside the job's selection; 1 not S3 event notifications, left where they are (first: message ")
          .contains("EVENTS: deleted 6 messages, what they name settled; handed 1 back to the queue for the next pass\n");
      assertThat(counter.seen(FaultProxy.Kind.LIST_OBJECTS)).as("a delta pass lists neither side").isEqualTo(lists);
      assertThat(console).contains("  convergence  3 keys changed; this pass: ").contains("the rate of change is known from the second"
          + " pass on");
      assertThat(summary.convergence().from()).isEqualTo("events");
      assertThat(Files.readString(Path.of(summary.reportPath(), "report.html"))).as("the report page says it too")
          .contains("<p class=verdict id=convergence><b>Convergence</b>: 3 keys changed; this pass: ");
      assertThat(summary.objects().copied()).isEqualTo(2);
      assertThat(summary.objects().deleted()).isEqualTo(1);
      Map<String, String> expected = sourceDigests(s3.client(), "live");
      expected.put("lost.txt", SeedData.sha256(work.resolve("queue-files").resolve("lost.txt"))); // no event: not looked at
      assertThat(expected.get("lost.txt")).isNotEqualTo(sourceDigests(s3.client(), "live").get("lost.txt"));
      assertThat(Trees.digests(files)).isEqualTo(expected).doesNotContainKey("docs/c.txt").containsKey("docs/new one.txt");
      assertThat(waiting(sqs, url)).as("only the message that is no event is left, visible again").isEqualTo(1);
      assertThat(visible(sqs, url)).isEqualTo(1);

      // the same events again, late: each key looked up again, nothing copied or deleted
      for (String b : bodies.subList(0, 3)) sqs.sendMessage(r -> r.queueUrl(url).messageBody(b));
      ByteArrayOutputStream lateOut = new ByteArrayOutputStream();
      RunSummary again = run(delta, lateOut);
      assertThat(again.convergence().changesPerHour()).as("the second pass knows the rate of change").isPositive();
      assertThat(lateOut.toString(StandardCharsets.UTF_8)).containsPattern("convergence  3 keys changed in \\d+ s \\(\\d+ an hour\\)");
      assertThat(again.objects().copied()).isZero();
      assertThat(again.objects().deleted()).isZero();
      assertThat(again.objects().skippedUnchanged()).isEqualTo(2);
      assertThat(Trees.digests(files)).isEqualTo(expected);
    }
    // a full pass finds the change whose event was lost
    RunSummary full = run(listing, new ByteArrayOutputStream());
    assertThat(full.objects().copied()).isEqualTo(1);
    assertThat(full.convergence()).as("a full pass is no delta").isNull();
    assertThat(Trees.digests(files)).isEqualTo(sourceDigests(s3.client(), "live"));
  }

  @Test
  void aPassWhoseCutOverIsRefusedHandsItsMessagesBackAndARerunReleasesWhatACrashHeld() throws Exception {
    seed("held");
    String url = queues.createQueue("held-changes", Duration.ofSeconds(30));
    assertThat(run(job("held", "held", ""), new ByteArrayOutputStream()).objects().failed()).isZero();
    try (SqsClient sqs = queues.client()) {
      sqs.sendMessage(r -> r.queueUrl(url).messageBody(body(remove("held", "a.txt"), remove("held", "docs/c.txt"))));
      String refused = job("held", "held", "ferry.source { changes = events, events.queue = \"" + url + "\" }\n"
          + "ferry.destination.max-delete = 1");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      run(refused, out);
      assertThat(out.toString(StandardCharsets.UTF_8)).contains("DELETE refused: it would delete 2 of the 2 objects")
          .contains("EVENTS: deleted 0 messages, what they name settled; handed 1 back to the queue for the next pass (2 keys failed,"
              + " archived or not deleted; 0 written keys the source does not show yet)");
      assertThat(Files.exists(work.resolve("held-files/a.txt"))).isTrue();

      // a run killed after receiving: its messages are held, their receipts in the ledger; the next run releases them first
      List<Message> held = sqs.receiveMessage(r -> r.queueUrl(url).visibilityTimeout(3600).maxNumberOfMessages(10)).messages();
      assertThat(held).hasSize(1);
      Ledger ledger = new Ledger(Ledger.directory(work.resolve("reports").toString(), "held", new Configuration()), new Configuration());
      new DeltaState(held.stream().map(Message::receiptHandle).toList(), 0).write(ledger);
      ByteArrayOutputStream rerun = new ByteArrayOutputStream();
      RunSummary summary = run(job("held", "held", "ferry.source { changes = events, events.queue = \"" + url + "\" }"), rerun);
      assertThat(rerun.toString(StandardCharsets.UTF_8)).contains("EVENTS: released the 1 messages an earlier run of the job held")
          .contains("EVENTS 1 messages, 2 changes: 2 keys to look up (2 last removed)");
      assertThat(summary.objects().deleted()).isEqualTo(2);
      assertThat(Trees.digests(work.resolve("held-files"))).isEqualTo(sourceDigests(s3.client(), "held"));
      assertThat(waiting(sqs, url)).isZero();
      assertThat(DeltaState.read(ledger).held()).isEmpty();
      assertThat(DeltaState.read(ledger).drainedMillis()).isPositive();

      // receipts whose messages are gone (deleted, or their hold ended long ago) do not stop the next run
      new DeltaState(held.stream().map(Message::receiptHandle).toList(), DeltaState.read(ledger).drainedMillis()).write(ledger);
      ByteArrayOutputStream stale = new ByteArrayOutputStream();
      assertThat(run(job("held", "held", "ferry.source { changes = events, events.queue = \"" + url + "\" }"), stale).objects()
          .failed()).isZero();
      assertThat(stale.toString(StandardCharsets.UTF_8)).contains("EVENTS 0 messages, 0 changes");
      assertThat(DeltaState.read(ledger).held()).isEmpty();
    }
  }

  /**
   * A pass killed (SIGKILL, its own JVM) as it sends the deletion of its messages, after its copy and its deletion were
   * committed: the messages stay; the next pass releases them, finds their keys settled, and deletes them.
   */
  @Test
  void aPassKilledBetweenItsCommitAndItsAcknowledgementIsRepeatedHarmlessly() throws Exception {
    seed("killed");
    Path files = work.resolve("killed-files");
    assertThat(run(job("killed", "killed", ""), new ByteArrayOutputStream()).objects().failed()).isZero();
    String direct = queues.createQueue("killed-changes", Duration.ofSeconds(30));
    try (FaultProxy toQueue = FaultProxy.before(queues.endpoint()); SqsClient sqs = queues.client()) {
      String url = toQueue.endpoint() + URI.create(direct).getPath();
      String delta = job("killed", "killed", "ferry.source { changes = events, events.queue = \"" + url + "\" }");
      sqs.sendMessage(r -> r.queueUrl(direct).messageBody(body(put("killed", "a.txt", "a, written again"),
          remove("killed", "docs/c.txt"))));
      Path conf = Files.writeString(work.resolve("killed.conf"), delta);
      Path log = work.resolve("killed.log");
      AtomicReference<Process> pass = new AtomicReference<>();
      AtomicInteger acknowledgements = new AtomicInteger();
      toQueue.decide((kind, target, headers) -> {
        if (!headers.getOrDefault("x-amz-target", "").contains("DeleteMessage")) return null;
        acknowledgements.incrementAndGet();
        pass.get().destroyForcibly(); // before the queue hears of it
        try {
          pass.get().waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return new FaultProxy.Fault.ResetBeforeForward();
      });
      pass.set(FerryProcess.start(conf, log, Map.of(), "migrate", "-Dferry.source.credentials.secret-access-key=" + s3.secret()));
      assertThat(pass.get().waitFor(120, TimeUnit.SECONDS)).as(Files.readString(log)).isTrue();
      toQueue.decide(null);
      assertThat(acknowledgements.get()).as(Files.readString(log)).isEqualTo(1);
      assertThat(Files.readString(log)).doesNotContain("EVENTS: deleted");
      assertThat(Trees.digests(files)).as("committed before the kill").isEqualTo(sourceDigests(s3.client(), "killed"));
      assertThat(waiting(sqs, direct)).as("the message, unacknowledged").isEqualTo(1);

      ByteArrayOutputStream out = new ByteArrayOutputStream();
      RunSummary again = run(delta, out);
      assertThat(out.toString(StandardCharsets.UTF_8)).contains("EVENTS 1 messages, 2 changes: 2 keys to look up")
          .contains("EVENTS: deleted 1 messages, what they name settled");
      assertThat(again.objects().copied()).isZero();
      assertThat(again.objects().deleted()).isZero();
      assertThat(again.objects().skippedUnchanged()).isEqualTo(1);
      assertThat(waiting(sqs, direct)).isZero();
      assertThat(Trees.digests(files)).isEqualTo(sourceDigests(s3.client(), "killed"));
      assertThat(Trees.tempFiles(files)).isEmpty();
    }
  }

  @Test
  void eachMessageIsSettledOnItsOwnAndADryRunHandsEveryMessageBack() throws Exception {
    seed("each");
    String url = queues.createQueue("each-changes", Duration.ofSeconds(30));
    assertThat(run(job("each", "each", ""), new ByteArrayOutputStream()).objects().failed()).isZero();
    String delta = job("each", "each", "ferry.source { changes = events, events.queue = \"" + url + "\" }");
    try (SqsClient sqs = queues.client()) {
      sqs.sendMessage(r -> r.queueUrl(url).messageBody(body(put("each", "docs/b.bin", "b, written again"))));
      sqs.sendMessage(r -> r.queueUrl(url).messageBody(body(put("each", "a.txt", "a, written again"))));
      MigrationConfig config = io.ferry.config.ConfigLoader.fromConfig(com.typesafe.config.ConfigFactory.parseString(delta),
          Map.of("ferry.source.credentials.secret-access-key", s3.secret()));
      ByteArrayOutputStream plan = new ByteArrayOutputStream();
      io.ferry.spark.run.Commands.plan(config, io.ferry.spark.SparkStart.begin(), new PrintStream(plan, true, StandardCharsets.UTF_8));
      assertThat(plan.toString(StandardCharsets.UTF_8)).contains("EVENTS 2 messages, 2 changes: 2 keys to look up")
          .contains("  window    known once a delta pass of this job has run");
      assertThat(visible(sqs, url)).as("a dry run hands every message back").isEqualTo(2);

      counter.inject(FaultProxy.Kind.GET_OBJECT, "docs/b.bin", new FaultProxy.Fault.Status(403, "AccessDenied"), 100);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      RunSummary failing = run(delta, out);
      counter.clear();
      assertThat(failing.objects().failed()).isEqualTo(1);
      assertThat(out.toString(StandardCharsets.UTF_8)).contains("EVENTS: deleted 1 messages, what they name settled; handed 1 back to"
          + " the queue for the next pass (1 keys failed");
      assertThat(visible(sqs, url)).as("the message whose key failed, for the next pass").isEqualTo(1);
      // the pass measured, plan projects the next and the window from it
      ByteArrayOutputStream projected = new ByteArrayOutputStream();
      io.ferry.spark.run.Commands.plan(config, io.ferry.spark.SparkStart.begin(), new PrintStream(projected, true,
          StandardCharsets.UTF_8));
      assertThat(projected.toString(StandardCharsets.UTF_8)).containsPattern("  window    the next pass about [0-9.]+ (ms|s) for its 1"
          + " keys \\(as run \\d{8}T\\d{6}Z-[0-9a-f]{4} measured a pass\\); at \\d+ changes an hour passes settle at ");
      assertThat(visible(sqs, url)).isEqualTo(1);
      RunSummary next = run(delta, new ByteArrayOutputStream());
      assertThat(next.objects().copied()).isEqualTo(1);
      assertThat(waiting(sqs, url)).isZero();
      assertThat(Trees.digests(work.resolve("each-files"))).isEqualTo(sourceDigests(s3.client(), "each"));
    }
  }

  @Test
  void aKeyOverwrittenOutOfTheSizeRangeIsLeftAsAListingLeavesItAndItsMessageSettled() throws Exception {
    seed("small");
    String url = queues.createQueue("small-changes", Duration.ofSeconds(30));
    String listing = job("small", "small", "ferry.source.min-size = 8");
    assertThat(run(listing, new ByteArrayOutputStream()).objects().failed()).isZero();
    String before = SeedData.sha256(work.resolve("small-files/a.txt"));
    try (SqsClient sqs = queues.client()) {
      sqs.sendMessage(r -> r.queueUrl(url).messageBody(body(put("small", "a.txt", "tiny"))));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      RunSummary summary = run(job("small", "small", "ferry.source { min-size = 8, changes = events, events.queue = \"" + url
          + "\" }"), out);
      assertThat(summary.objects().failed()).isZero();
      assertThat(summary.objects().deleted()).as("a key the size range leaves is no extraneous one").isZero();
      assertThat(out.toString(StandardCharsets.UTF_8)).contains("EVENTS: deleted 1 messages, what they name settled; handed 0 back");
      assertThat(SeedData.sha256(work.resolve("small-files/a.txt"))).isEqualTo(before);
      assertThat(waiting(sqs, url)).isZero();
    }
  }

  @Test
  void aPassFromJsonLinesIntoABucket() throws Exception {
    seed("lines");
    String into = """
        ferry.destination { type = s3, endpoint = "%s", bucket = lines-copy, prefix = "copy/"
          credentials { access-key-id = "%s", secret-access-key = "%s" } }
        """.formatted(s3.endpoint(), s3.identity(), s3.secret());
    s3.client().createBucket(b -> b.bucket("lines-copy"));
    assertThat(run(job("lines", "lines", into), new ByteArrayOutputStream()).objects().failed()).isZero();
    Path events = work.resolve("events.jsonl");
    Files.writeString(events, String.join("\n", body(put("lines", "docs/d e+f.txt", "changed")), "",
        body(remove("lines", "docs/b.bin")), "{\"Records\": [") + "\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunSummary summary = run(job("lines", "lines", into + "ferry.source { changes = events, events.files = [\"" + events + "\"] }"), out);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("EVENTS 3 lines, 2 changes: 2 keys to look up (1 last removed); 1 not S3"
        + " event notifications, left where they are (first: " + events + " line 4: not JSON");
    assertThat(summary.objects().copied()).isEqualTo(1);
    assertThat(summary.objects().deleted()).isEqualTo(1);
    Map<String, String> copy = new TreeMap<>();
    copy.putAll(io.ferry.support.Buckets.digests(s3.client(), "lines-copy", "copy/"));
    assertThat(copy).isEqualTo(sourceDigests(s3.client(), "lines"));
  }

  /** An S3 Inventory report (CSV, keys URL-encoded) of the bucket as it is now, plus rows of its own: its manifest.json. */
  private Path inventory(String bucket, String name, String... extraRows) throws Exception {
    Path report = Files.createDirectories(work.resolve("inventories/" + bucket + "/" + name));
    StringBuilder rows = new StringBuilder();
    s3.client().listObjectsV2Paginator(b -> b.bucket(bucket)).contents().forEach(o -> rows.append(String.format(
        "\"%s\",\"%s\",\"%d\",\"%s\",\"%s\"%n", bucket, URLEncoder.encode(o.key(), StandardCharsets.UTF_8), o.size(),
        o.lastModified(), o.eTag().replace("\"", ""))));
    for (String row : extraRows) rows.append(row).append('\n');
    Files.writeString(report.resolve(name + ".csv"), rows);
    return Files.writeString(report.resolve("manifest.json"), """
        {"sourceBucket": "%s", "destinationBucket": "arn:aws:s3:::inventory", "version": "2016-11-30", "fileFormat": "CSV",
         "creationTimestamp": "%d", "fileSchema": "Bucket, Key, Size, LastModifiedDate, ETag",
         "files": [{"key": "%s/%s/%s.csv", "size": 1, "MD5checksum": "0"}]}
        """.formatted(bucket, System.currentTimeMillis() + inventories.incrementAndGet(), bucket, name, name));
  }

  @Test
  void aPassFromTwoInventoriesLooksUpOnlyTheKeysTheyDifferIn() throws Exception {
    seed("inv");
    String listing = job("inv", "inv", "");
    assertThat(run(listing, new ByteArrayOutputStream()).objects().failed()).isZero();
    Path older = inventory("inv", "older");
    put("inv", "a.txt", "a, written again");
    remove("inv", "docs/c.txt");
    put("inv", "docs/new.txt", "new");
    put("inv", "tmp/skip.txt", "excluded by the job's globs");
    s3.client().putObject(b -> b.bucket("inv").key("lost.txt"), RequestBody.fromString("changed after the newer report"));
    Path newer = inventory("inv", "newer");
    s3.client().putObject(b -> b.bucket("inv").key("lost.txt"), RequestBody.fromString("changed after the newer report, again"));
    // two reports the wrong way round, or another bucket's, end the run with one line before anything is read
    assertThatThrownBy(() -> run(job("inv", "inv", "ferry.source { changes = inventory-diff, inventory-diff { older = \"" + newer
        + "\", newer = \"" + older + "\" } }"), new ByteArrayOutputStream())).isInstanceOf(JobFailure.class)
        .hasMessageStartingWith("the inventory " + newer + " was made after " + older);
    Path foreign = Files.writeString(work.resolve("inventories/foreign.json"), Files.readString(newer).replace("\"sourceBucket\":"
        + " \"inv\"", "\"sourceBucket\": \"other\""));
    assertThatThrownBy(() -> run(job("inv", "inv", "ferry.source { changes = inventory-diff, inventory-diff { older = \"" + older
        + "\", newer = \"" + foreign + "\" } }"), new ByteArrayOutputStream())).isInstanceOf(JobFailure.class)
        .hasMessage("the inventory " + foreign + " lists the bucket other, and the source is inv (check ferry.source.inventory-diff)");
    int lists = counter.seen(FaultProxy.Kind.LIST_OBJECTS);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunSummary summary = run(job("inv", "inv", "ferry.source { changes = inventory-diff, inventory-diff { older = \"" + older
        + "\", newer = \"" + newer + "\" } }"), out);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("INVENTORIES 4 keys differ between " + older + " and " + newer);
    assertThat(counter.seen(FaultProxy.Kind.LIST_OBJECTS)).as("neither side listed").isEqualTo(lists);
    assertThat(summary.objects().copied()).as("a.txt, docs/new.txt and lost.txt, as the source holds them now").isEqualTo(3);
    assertThat(summary.objects().deleted()).isEqualTo(1);
    assertThat(Trees.digests(work.resolve("inv-files"))).isEqualTo(sourceDigests(s3.client(), "inv"));
    assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("may have been missed");

    // the next diff starts from a report made after the newer one: what changed between them is in neither
    put("inv", "docs/between.txt", "changed between the two diffs");
    Path later = inventory("inv", "later");
    put("inv", "a.txt", "a, written a third time");
    Path latest = inventory("inv", "latest");
    String skipping = job("inv", "inv", "ferry.source { changes = inventory-diff, inventory-diff { older = \"" + later + "\", newer = \""
        + latest + "\" } }");
    for (int pass = 1; pass <= 2; pass++) { // the mark stays where every change was last seen: each pass past it says so
      ByteArrayOutputStream gap = new ByteArrayOutputStream();
      run(skipping, gap);
      assertThat(gap.toString(StandardCharsets.UTF_8)).as("pass %d", pass).contains("INVENTORIES: changes may have been missed: every"
          + " key was last settled as of " + newer).contains("the older report " + later + " was made after that");
    }
    assertThat(Trees.digests(work.resolve("inv-files"))).as("docs/between.txt is in neither diff").doesNotContainKey("docs/between.txt");
    // a full pass settles everything changed before it began: diffs from reports made by then miss nothing
    assertThat(run(listing, new ByteArrayOutputStream()).objects().copied()).isEqualTo(1);
    ByteArrayOutputStream after = new ByteArrayOutputStream();
    run(skipping, after);
    assertThat(after.toString(StandardCharsets.UTF_8)).doesNotContain("may have been missed");
    assertThat(Trees.digests(work.resolve("inv-files"))).isEqualTo(sourceDigests(s3.client(), "inv"));
  }

  @Test
  void aQueueThatCannotBeReadEndsTheRunWithOneLine() throws Exception {
    seed("nowhere");
    String missing = queues.endpoint() + "/000000000000/no-such-queue";
    assertThatThrownBy(() -> run(job("nowhere", "nowhere", "ferry.source { changes = events, events.queue = \"" + missing + "\" }"),
        new ByteArrayOutputStream()))
        .isInstanceOf(JobFailure.class)
        .hasMessageStartingWith("cannot read the queue " + missing + ": ")
        .hasMessageContaining("(check ferry.source.events.queue")
        .message().doesNotContain("\n");
  }
}
