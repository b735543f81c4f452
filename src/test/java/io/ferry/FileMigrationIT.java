package io.ferry;

import io.ferry.spark.run.MigrationJob;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.config.MigrationConfig;
import io.ferry.support.SeedData;
import io.ferry.plan.Lanes;
import io.ferry.report.RunSummary;
import io.ferry.report.Units;
import io.ferry.support.Browser;
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
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;

/** Bucket → files over real HTTP (S3Proxy, SigV4) on local Spark: content, datasets, reruns, filters. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FileMigrationIT {
  private static final long MIB = 1L << 20;
  @TempDir static Path work;
  private S3Backend s3;
  private SparkSession spark;
  private Map<String, String> source;
  private long sourceBytes;
  private Path firstRun;
  private final List<Path> laterRuns = new ArrayList<>();
  private String console;

  @BeforeAll
  void start() throws Exception {
    s3 = S3Backend.start(work);
    spark = LocalSpark.start("FileMigrationIT");
    List<SeedData.Spec> specs = new ArrayList<>(SeedData.mix(40 * MIB + 123, 150));
    specs.add(new SeedData.Spec("boundary/part-minus-1", 8 * MIB - 1, 7));
    specs.add(new SeedData.Spec("boundary/part", 8 * MIB, 8));
    specs.add(new SeedData.Spec("boundary/part-plus-1", 8 * MIB + 1, 9));
    specs.add(new SeedData.Spec("boundary/2-parts-plus-1", 16 * MIB + 1, 10));
    source = SeedData.upload(s3.client(), "source", specs);
    sourceBytes = specs.stream().mapToLong(SeedData.Spec::size).sum();
  }

  @AfterAll
  void stop() throws Exception {
    if (spark != null) spark.stop();
    if (s3 != null) s3.close();
  }

  private RunSummary migrate(MigrationConfig config) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunSummary summary = MigrationJob.run(config, JavaSparkContext.fromSparkContext(spark.sparkContext()), new PrintStream(out, true,
        StandardCharsets.UTF_8));
    console = out.toString(StandardCharsets.UTF_8);
    assertThat(console).contains("Ferry run " + summary.run()).doesNotContain(s3.secret());
    return summary;
  }

  @Test
  @Order(1)
  void copiesEveryObjectByteForByteAndRecordsEveryRange() throws Exception {
    Path destination = work.resolve("out");
    Path reports = work.resolve("reports");
    RunSummary summary = migrate(Jobs.config(s3, s3.endpoint(), "source", destination, reports,
        "ferry.report { progress-interval = 200ms, json-lines = true }"));

    assertThat(Trees.digests(destination)).isEqualTo(new TreeMap<>(source));
    assertThat(Trees.tempFiles(destination)).isEmpty();
    assertThat(summary.succeeded()).isTrue();
    assertThat(summary.objects().copied()).isEqualTo(source.size());
    assertThat(summary.bytes().copied()).isEqualTo(sourceBytes);

    // 40 MiB + 123 in 8 MiB parts = 6 ranges; 16 MiB + 1 = 3; 8 MiB + 1 = 2; every other object is one range
    long expectedRanges = 6 + 3 + 2 + (source.size() - 3);
    assertThat(summary.ranges().total()).isEqualTo(expectedRanges);
    assertThat(summary.ranges().splitObjects()).isEqualTo(3);

    Path run = reports.resolve("test").resolve(summary.run());
    firstRun = run;
    Dataset<Row> ranges = spark.read().parquet(run.resolve("ranges.parquet").toString());
    assertThat(ranges.count()).isEqualTo(expectedRanges);
    assertThat(ranges.agg(functions.sum("bytes")).first().getLong(0)).isEqualTo(sourceBytes);
    assertThat(ranges.filter("status != 'OK'").count()).isZero();
    Row big = ranges.filter("key = 'video/raw footage 2018.bin'").agg(functions.count("*"), functions.sum("length"),
        functions.min("offset"), functions.max("offset")).first();
    assertThat(big.getLong(0)).isEqualTo(6);
    assertThat(big.getLong(1)).isEqualTo(40 * MIB + 123);
    assertThat(big.getLong(3)).isEqualTo(40 * MIB);
    assertThat(ranges.filter("bytes > 0 and (mb_per_s <= 0 or first_byte_ms is null or duration_ms <= 0)").count()).isZero();
    assertThat(ranges.filter("crc32c rlike '^[0-9a-f]{8}$'").count()).isEqualTo(expectedRanges);
    // a fixed count: every range started under the executor's 16 streams per slot
    assertThat(ranges.select("streams").distinct().collectAsList()).singleElement()
        .satisfies(r -> assertThat(r.getInt(0)).isPositive().isEqualTo(16 * (r.getInt(0) / 16)));
    assertThat(console).doesNotContain("STREAMS").doesNotContain("  streams      tuned");

    Dataset<Row> csv = spark.read().option("header", "true").csv(run.resolve("ranges.csv").toString());
    assertThat(csv.count()).isEqualTo(expectedRanges);
    assertThat(csv.agg(functions.sum(functions.col("bytes").cast("long"))).first().getLong(0)).isEqualTo(sourceBytes);
    Dataset<Row> objects = spark.read().parquet(run.resolve("objects.parquet").toString());
    assertThat(objects.filter("status = 'COPIED'").count()).isEqualTo(source.size());

    JsonNode json = new ObjectMapper().readTree(run.resolve("summary.json").toFile());
    assertThat(json.get("name").asText()).isEqualTo("ferry-run-summary");
    assertThat(json.get("version").asInt()).isEqualTo(1);
    assertThat(json.at("/objects/copied").asLong()).isEqualTo(source.size());
    assertThat(json.at("/bytes/copied").asLong()).isEqualTo(sourceBytes);
    assertThat(json.at("/throughput/rangeP50MBps").asDouble()).isPositive();
    String html = Files.readString(run.resolve("report.html"));
    assertThat(html).contains("Ferry run " + summary.run()).contains("<svg");
    // why it was this fast: a verdict in the summary, atop the page and on the console's last lines
    assertThat(json.at("/verdict/limit").asText()).isNotEmpty().isEqualTo(summary.verdict().limit());
    assertThat(json.at("/verdict/evidence").asText()).isNotEmpty();
    assertThat(html).contains("id=verdict><b>Limited by " + summary.verdict().limit().replace("&", "&amp;"));
    assertThat(console).contains("  verdict      " + summary.verdict().limit() + ": ");
    assertThat(summary.stragglers()).isNotEmpty();
    summary.stragglers().forEach(r -> assertThat(html).contains(r.key().replace("&", "&amp;").replace("<", "&lt;")
        .replace(">", "&gt;").replace("\"", "&quot;"))); // the slowest ranges, by name (HTML-escaped)
    assertThat(Files.readString(run.resolve("summary.json")) + html).doesNotContain(s3.secret());

    // the progress line's last figures are the run's: every byte and range the executors reported while copying
    List<String> progress = console.lines().filter(l -> l.startsWith("COPY  ")).toList();
    assertThat(progress).isNotEmpty();
    assertThat(progress.get(progress.size() - 1)).contains(Units.bytes(sourceBytes) + " of " + Units.bytes(sourceBytes) + " (100%)")
        .contains("ranges " + expectedRanges + " of " + expectedRanges + ", 0 retries, 0 failed");
    // one row per copy task, adding up to the run; the same objects as JSON lines
    Dataset<Row> partitions = spark.read().parquet(run.resolve("partitions.parquet").toString());
    Row tasks = partitions.agg(functions.sum("ranges"), functions.sum("bytes"), functions.min("started_at"), functions.count("*")).first();
    assertThat(tasks.getLong(0)).isEqualTo(expectedRanges);
    assertThat(tasks.getLong(1)).isEqualTo(sourceBytes);
    assertThat(tasks.getLong(3)).isEqualTo(partitions.select("partition").distinct().count());
    // the copy's partitions are lanes of equal weight (Lanes): as many as planned, each within the largest task of the mean
    Dataset<Row> perTask = ranges.groupBy("task").agg(functions.sum("bytes").as("b"), functions.count("*").as("n"));
    int lanes = Lanes.count(perTask.count(), 16, spark.sparkContext().defaultParallelism());
    assertThat(tasks.getLong(3)).isEqualTo(lanes);
    long largestTask = perTask.agg(functions.max(functions.col("b").plus(functions.col("n")))).first().getLong(0);
    double mean = (double) (sourceBytes + expectedRanges) / lanes;
    for (Row lane : partitions.select("bytes", "ranges").collectAsList()) {
      assertThat(Math.abs(lane.getLong(0) + lane.getLong(1) - mean)).isLessThanOrEqualTo(largestTask);
    }
    assertThat(html).contains("Tasks over time");
    Dataset<Row> lines = spark.read().json(run.resolve("objects.jsonl").toString());
    assertThat(lines.filter("status = 'COPIED'").count()).isEqualTo(source.size());
    assertThat(lines.agg(functions.sum("size")).first().getLong(0)).isEqualTo(sourceBytes);
  }

  @Test
  @Order(2)
  void aRerunSkipsUnchangedObjectsAndCopiesChangedOnes() throws Exception {
    Path destination = work.resolve("out");
    Path reports = work.resolve("reports");
    RunSummary again = migrate(Jobs.config(s3, s3.endpoint(), "source", destination, reports, ""));
    assertThat(again.objects().skippedUnchanged()).isEqualTo(source.size());
    assertThat(again.objects().copied()).isZero();
    assertThat(again.bytes().copied()).isZero();

    byte[] changed = "a new version".getBytes(StandardCharsets.UTF_8);
    s3.client().putObject(b -> b.bucket("source").key("docs/日本語/レポート.pdf"), RequestBody.fromBytes(changed));
    RunSummary third = migrate(Jobs.config(s3, s3.endpoint(), "source", destination, reports, ""));
    assertThat(third.objects().copied()).isEqualTo(1);
    assertThat(third.objects().skippedUnchanged()).isEqualTo(source.size() - 1);
    assertThat(destination.resolve("docs/日本語/レポート.pdf")).hasBinaryContent(changed);
    laterRuns.add(reports.resolve("test").resolve(again.run()));
    laterRuns.add(reports.resolve("test").resolve(third.run()));
    s3.client().putObject(b -> b.bucket("source").key("docs/日本語/レポート.pdf"), RequestBody.fromBytes(changed));
  }

  @Test
  @Order(3)
  void prefixIncludesAndExcludesSelectKeys() throws Exception {
    Path destination = work.resolve("logs-only");
    RunSummary summary = migrate(Jobs.config(s3, s3.endpoint(), "source", destination, work.resolve("reports"),
        "ferry.source { prefix = \"logs/\", includes = [\"0*/**\"], excludes = [\"**/app-00[0-4]*.log\"] }"));
    Map<String, String> expected = new TreeMap<>();
    source.forEach((key, digest) -> {
      if (key.startsWith("logs/0") && !key.matches("logs/0./app-00[0-4].*\\.log")) expected.put(key.substring("logs/".length()), digest);
    });
    assertThat(expected).isNotEmpty();
    assertThat(Trees.digests(destination)).isEqualTo(expected);
    assertThat(summary.objects().copied()).isEqualTo(expected.size());
  }

  @Test
  @Order(4)
  void theThroughputNotebookRunsOnTheRunsDatasets() throws Exception {
    Assumptions.assumeTrue(firstRun != null && laterRuns.size() == 2, "needs the runs of the first two tests");
    boolean jupyter;
    try {
      jupyter = new ProcessBuilder("jupyter-nbconvert", "--version").redirectErrorStream(true).start().waitFor() == 0;
    } catch (java.io.IOException e) {
      jupyter = false;
    }
    Assumptions.assumeTrue(jupyter, "jupyter-nbconvert is not installed (Debian: jupyter-nbconvert python3-ipykernel "
        + "python3-pandas python3-matplotlib; .ci/run installs them): the notebook was not executed");
    Path output = work.resolve("notebook");
    ProcessBuilder builder = new ProcessBuilder("jupyter-nbconvert", "--to", "notebook", "--execute",
        "--ExecutePreprocessor.timeout=300", "--output-dir", output.toString(), "--output", "executed",
        Path.of("notebooks/throughput.ipynb").toAbsolutePath().toString())
        .redirectErrorStream(true);
    builder.environment().put("FERRY_RUN_DIR", firstRun.toString());
    builder.environment().put("FERRY_COMPARE_RUNS", String.join(",", firstRun.toString(), laterRuns.get(0).toString(),
        laterRuns.get(1).toString()));
    builder.environment().put("PYDEVD_DISABLE_FILE_VALIDATION", "1");
    Process process = builder.start();
    String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as(log).isZero();
    String executed = Files.readString(output.resolve("executed.ipynb"));
    long ranges = spark.read().parquet(firstRun.resolve("ranges.parquet").toString()).count();
    String limit = new ObjectMapper().readTree(firstRun.resolve("summary.json").toFile()).at("/verdict/limit").asText();
    assertThat(executed).contains("Limited by " + limit + ": ");
    assertThat(executed).contains(ranges + " ranges of " + source.size() + " objects").contains("image/png")
        .contains("3 runs compared").contains(laterRuns.get(1).getFileName().toString())
        .doesNotContain("\"output_type\": \"error\"");
  }

  @Test
  @Order(5)
  void theReportRendersInARealBrowserWithTheRunsChartsAndRows() throws Exception {
    Assumptions.assumeTrue(firstRun != null, "needs the first run's report");
    Assumptions.assumeTrue(Browser.executable() != null, "Chromium is not installed (Debian: chromium; .ci/run installs it)");
    JsonNode summary = new ObjectMapper().readTree(firstRun.resolve("summary.json").toFile());
    long tasks = spark.read().parquet(firstRun.resolve("partitions.parquet").toString()).count();
    try (Browser browser = new Browser(work.resolve("chromium"), 1000, 1600)) {
      browser.open(firstRun.resolve("report.html"));
      assertThat(browser.evaluate("document.title").asText()).isEqualTo("Ferry run " + firstRun.getFileName());
      assertThat(browser.evaluate("[...document.querySelectorAll('h2')].map(h => h.textContent)").toString())
          .contains("Throughput over time", "Tasks over time", "Executors", "Range throughput (MB/s)", "Slowest ranges");
      // every chart laid out with a size; the timeline a line of many points; a bar per copy task; a row per straggler
      assertThat(browser.evaluate("[...document.querySelectorAll('svg')].filter(s => { const r = s.getBoundingClientRect(); "
          + "return r.width > 100 && r.height > 50; }).length").asInt()).isEqualTo(3);
      assertThat(browser.evaluate("document.querySelector('svg path[stroke]').getTotalLength()").asDouble()).isGreaterThan(100);
      // the throughput chart's axes carry round ticks, labelled from 0, laid out inside the chart
      assertThat(browser.evaluate("[...document.querySelectorAll('svg')[0].querySelectorAll('text.tick')].map(t => t.textContent)")
          .toString()).matches("\\[\"0(\\.0+)?\",.*");
      assertThat(browser.evaluate("document.querySelectorAll('svg')[0].querySelectorAll('text.tick').length").asInt())
          .isGreaterThanOrEqualTo(6);
      assertThat(browser.evaluate("[...document.querySelectorAll('svg')[0].querySelectorAll('text.tick')].every(t => {"
          + " const b = t.getBBox(); return b.x >= 0 && b.x + b.width <= 860 && b.width > 0; })").asBoolean()).isTrue();
      assertThat(browser.evaluate("document.querySelectorAll('rect.task').length").asLong()).isEqualTo(tasks);
      assertThat(browser.evaluate("[...document.querySelectorAll('rect.task')].every(r => r.getBBox().width >= 1)").asBoolean()).isTrue();
      int stragglers = summary.get("stragglers").size();
      assertThat(stragglers).isPositive();
      String shown = "[...document.querySelectorAll('#slowest tr')].filter(r => r.offsetParent !== null)";
      assertThat(browser.evaluate(shown + ".length").asInt()).as("one body's rows shown, with the header").isEqualTo(stragglers + 1);
      // sorted without a script: a header's click shows its column's order (MB/s largest first, keys A to Z)
      String column = shown + ".slice(1).map(r => r.cells[%d].textContent)";
      browser.evaluate("document.querySelector('label[for=\"slowest-4\"]').click()");
      List<Double> rates = new ArrayList<>();
      browser.evaluate(String.format(column, 4)).forEach(v -> rates.add(Double.parseDouble(v.asText())));
      assertThat(rates).hasSize(stragglers).isSortedAccordingTo(java.util.Comparator.reverseOrder());
      browser.evaluate("document.querySelector('label[for=\"slowest-0\"]').click()");
      List<String> keys = new ArrayList<>();
      browser.evaluate(String.format(column, 0)).forEach(v -> keys.add(v.asText()));
      assertThat(keys).hasSize(stragglers).isSorted();
      assertThat(browser.evaluate("document.body.innerText").asText()).contains(String.valueOf(summary.at("/objects/copied").asLong()));
      assertThat(browser.errors()).as("the console and the page's errors").isEmpty();
    }
    // a wide window and a phone's: the page never scrolls sideways, its charts fit the window, and it draws something
    for (int[] size : new int[][] {{1400, 1000}, {420, 900}}) {
      try (Browser browser = new Browser(work.resolve("chromium-" + size[0]), size[0], size[1])) {
        browser.viewport(size[0], size[1]);
        browser.open(firstRun.resolve("report.html"));
        assertThat(browser.evaluate("window.innerWidth").asInt()).isEqualTo(size[0]);
        assertThat(browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth").asBoolean())
            .as("no sideways scroll at %d px", size[0]).isTrue();
        assertThat(browser.evaluate("[...document.querySelectorAll('svg')]"
            + ".every(s => s.getBoundingClientRect().right <= window.innerWidth)").asBoolean())
            .as("charts inside the window at %d px", size[0]).isTrue();
        Path png = work.resolve("report-" + size[0] + ".png");
        browser.screenshot(png);
        java.awt.image.BufferedImage image = javax.imageio.ImageIO.read(png.toFile());
        assertThat(image.getWidth()).as("the window, less a scroll bar").isBetween(size[0] - 20, size[0]);
        java.util.Set<Integer> colors = new java.util.HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) for (int x = 0; x < image.getWidth(); x += 3) colors.add(image.getRGB(x, y));
        assertThat(colors.size()).as("a page with text and charts, not a blank one, at %d px", size[0]).isGreaterThan(50);
        assertThat(browser.errors()).isEmpty();
      }
    }
  }

  @Test
  @Order(6)
  void reportWritesARunsPageAgainFromItsDatasetsAndComparesRuns() throws Exception {
    Assumptions.assumeTrue(firstRun != null && laterRuns.size() == 2, "needs the runs of the first two tests");
    Path page = firstRun.resolve("report.html");
    String original = Files.readString(page);
    Files.delete(page);
    // as a run older than the verdict left it: the page draws one from the datasets
    Path json = firstRun.resolve("summary.json");
    String written = Files.readString(json);
    var tree = (com.fasterxml.jackson.databind.node.ObjectNode) new ObjectMapper().readTree(written);
    String verdict = tree.at("/verdict/limit").asText();
    tree.remove("verdict");
    Files.writeString(json, new ObjectMapper().writeValueAsString(tree));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    assertThat(io.ferry.Ferry.run(new String[] {"report", firstRun.toString()}, print, print)).as(out.toString()).isZero();
    String again = Files.readString(page);
    Files.writeString(json, written);
    assertThat(again).contains("id=verdict><b>Limited by " + verdict);
    assertThat(paragraph(again, "id=verdict>")).as("the same verdict, drawn on the run's own timeline")
        .isEqualTo(paragraph(original, "id=verdict>"));
    // the same totals, sections, task bars and slowest ranges as the page the run wrote
    assertThat(table(again, 0)).isEqualTo(table(original, 0));
    assertThat(headings(again)).isEqualTo(headings(original)).contains("Tasks over time");
    assertThat(again.split("<rect class=\"task", -1).length).isEqualTo(original.split("<rect class=\"task", -1).length)
        .isGreaterThan(1); // stragglers among them too ("task straggler")
    assertThat(again.split("class=\"task straggler\"", -1).length).isEqualTo(original.split("class=\"task straggler\"", -1).length);
    assertThat(keys(again, "Slowest ranges")).isEqualTo(keys(original, "Slowest ranges")).isNotEmpty();

    // three runs: everything copied, nothing (all unchanged), one changed object
    Path compare = work.resolve("compare.html");
    List<String> args = new ArrayList<>(List.of("report", firstRun.toString()));
    laterRuns.forEach(r -> args.add(r.toString()));
    args.addAll(List.of("--out", compare.toString()));
    assertThat(io.ferry.Ferry.run(args.toArray(String[]::new), print, print)).as(out.toString()).isZero();
    String html = Files.readString(compare);
    assertThat(html).contains(firstRun.getFileName().toString(), laterRuns.get(0).getFileName().toString(),
        laterRuns.get(1).getFileName().toString());
    assertThat(html.split("<tr class=\"run\"", -1)).hasSize(4);
    assertThat(html.split("<path class=\"run\"", -1)).as("a throughput line per run that copied bytes").hasSize(3);
    assertThat(html).contains("Throughput over time", "Range rates");
    if (Browser.executable() != null) {
      try (Browser browser = new Browser(work.resolve("chromium-compare"), 1000, 1200)) {
        browser.open(compare);
        assertThat(browser.evaluate("document.querySelectorAll('tr.run').length").asInt()).isEqualTo(3);
        assertThat(browser.errors()).isEmpty();
      }
    }
  }

  private static String table(String html, int index) {
    String[] tables = html.split("<table>");
    return tables[index + 1].substring(0, tables[index + 1].indexOf("</table>"));
  }

  private static String paragraph(String html, String marker) {
    String after = html.substring(html.indexOf(marker));
    return after.substring(0, after.indexOf("</p>"));
  }

  private static List<String> headings(String html) {
    return java.util.regex.Pattern.compile("<h2[^>]*>([^<]*)</h2>").matcher(html).results().map(m -> m.group(1)).toList();
  }

  /** The first column of the table after the heading {@code title}. */
  private static List<String> keys(String html, String title) {
    String after = html.substring(html.indexOf("<h2>" + title + "</h2>"));
    String table = after.substring(0, after.indexOf("</table>"));
    return java.util.regex.Pattern.compile("<tr><td class=l>([^<]*)</td>").matcher(table).results().map(m -> m.group(1)).toList();
  }

  @Test
  @Order(7)
  void aBandwidthLimitHoldsTheWholeCopyUnderItWhateverTheStreams() throws Exception {
    Path destination = work.resolve("limited");
    long cap = 16L << 20; // bytes per second: the copy takes about 3 s
    RunSummary summary = migrate(Jobs.config(s3, s3.endpoint(), "source", destination, work.resolve("reports"),
        "ferry { limits.bandwidth = 16MiB, copy.streams-per-task = auto, plan.part-size = auto }"));
    assertThat(console).contains("STREAMS auto: each executor starts at 16 streams per task slot");
    // the probe read under the limit too: one stream measured at most the limit
    assertThat(console).containsPattern("PART SIZE auto: \\d+\\.\\d MiB \\(one stream waited \\d+ ms for a first byte and then read"
        + " 1[0-7]\\.\\d MB/s");
    assertThat(spark.read().parquet(work.resolve("reports/test").resolve(summary.run()).resolve("ranges.parquet").toString())
        .filter("streams < 2 or streams > 64 * 16").count()).as("the tuned streams stay within their bounds").isZero();
    assertThat(Trees.digests(destination)).isEqualTo(Trees.digests(work.resolve("out"))); // the source as the second test left it
    Row span = spark.read().parquet(work.resolve("reports/test").resolve(summary.run()).resolve("ranges.parquet").toString())
        .agg(functions.sum("bytes"), functions.min("started_at").cast("double"), functions.max("finished_at").cast("double")).first();
    double seconds = span.getDouble(2) - span.getDouble(1);
    assertThat(span.getLong(0) / seconds).as("bytes per second over the copy").isLessThanOrEqualTo(cap * 1.05);
  }
  @Test
  @Order(8)
  void theProgressLineCountsARangesBytesWhileItMoves() throws Exception {
    // one range of 40 MiB at 8 MiB/s: about 5 s, five of the test's 1 s heartbeats before the range ends
    RunSummary summary = migrate(Jobs.config(s3, s3.endpoint(), "source", work.resolve("progress"), work.resolve("reports"),
        "ferry { source.prefix = \"video/\", plan.part-size = 64MiB, limits.bandwidth = 8MiB, report.progress-interval = 200ms }"));
    assertThat(summary.ranges().total()).isEqualTo(1);
    List<String> moving = console.lines().filter(l -> l.startsWith("COPY  ") && l.endsWith("ranges 0 of 1, 0 retries, 0 failed"))
        .filter(l -> !l.startsWith("COPY  0 B of ")).toList();
    assertThat(moving).as("lines with bytes before the range finished, in:%n%s", console).isNotEmpty();
  }
}
