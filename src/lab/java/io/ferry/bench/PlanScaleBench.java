package io.ferry.bench;

import io.ferry.support.StandaloneCluster;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * Driver memory and wall time to list and plan millions of objects: {@code ferry plan} on a standalone cluster (a
 * master and two one-core workers, executors in JVMs of their own), its source an S3 Inventory report of N synthetic
 * objects (CSV.gz, read as it is: {@code manifest-check = false}; no server is needed to plan), its destination an
 * empty directory. The driver runs with a fixed heap and a GC log; its peak heap in use, and in use after each
 * collection (what it keeps), are read from the log. Results: bench/results/plan-scale.csv and plan-scale.md.
 *
 * <p>Environment: FERRY_SCALE_OBJECTS ("1000000,10000000"), FERRY_SCALE_DRIVER_HEAP (1g), FERRY_SCALE_EXECUTOR_MEMORY (5g).
 */
public final class PlanScaleBench {
  private static final int ROWS_PER_FILE = 500_000;

  private PlanScaleBench() {}

  public static void main(String[] args) throws Exception {
    Path home = Path.of(args[0]).toAbsolutePath();
    String heap = System.getenv().getOrDefault("FERRY_SCALE_DRIVER_HEAP", "1g");
    String executorMemory = System.getenv().getOrDefault("FERRY_SCALE_EXECUTOR_MEMORY", "5g");
    Path work = home.resolve("target/bench-scale");
    Files.createDirectories(work);
    Path csv = home.resolve("bench/results/plan-scale.csv");
    if (!Files.exists(csv)) {
      Files.writeString(csv, "when,objects,driver_heap,wall_s,driver_peak_used_mib,driver_peak_after_gc_mib,gcs,planned_objects,tasks\n");
    }
    for (String n : System.getenv().getOrDefault("FERRY_SCALE_OBJECTS", "1000000,10000000").split(",")) {
      long objects = Long.parseLong(n.trim());
      Path manifest = inventory(work.resolve("inventory-" + objects), objects);
      Path destination = Files.createDirectories(work.resolve("empty"));
      Path job = Files.writeString(work.resolve("scale-" + objects + ".conf"), """
          ferry {
            job.name = scale-%d
            source {
              endpoint = "http://127.0.0.1:9"
              bucket = scale
              credentials { access-key-id = ${?SCALE_KEY}, secret-access-key = ${?SCALE_SECRET} }
              manifest = "%s"
              manifest-check = false
            }
            destination.path = "%s"
            report.path = "%s"
          }
          """.formatted(objects, manifest, destination, work.resolve("reports")));
      Path gcLog = work.resolve("gc-" + objects + ".log");
      Files.deleteIfExists(gcLog);
      Path logs = work.resolve("cluster-" + objects);
      try (StandaloneCluster cluster = StandaloneCluster.start(logs, 2, executorMemory)) {
        long start = System.nanoTime();
        int code = cluster.submit(List.of("-Xmx" + heap, "-Xms" + heap, "-Xlog:gc:file=" + gcLog), List.of(
            "--class", "io.ferry.Ferry",
            "--conf", "spark.cores.max=2",
            "--conf", "spark.executor.memory=" + executorMemory,
            "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
            "--conf", "spark.driver.host=127.0.0.1",
            "--conf", "spark.ui.enabled=false",
            home.resolve("target/ferry.jar").toString(), "plan", job.toString()), Map.of("SCALE_KEY", "bench", "SCALE_SECRET", "bench"),
                7200);
        double seconds = (System.nanoTime() - start) / 1e9;
        String log = cluster.log("submit");
        if (code != 0) throw new IllegalStateException("plan of " + objects + " objects failed (" + code + "): see "
            + logs.resolve("submit.log"));
        long[] gc = gc(Files.readString(gcLog));
        String row = String.format(Locale.ROOT, "%s,%d,%s,%.1f,%d,%d,%d,%d,%d%n", Instant.now(), objects, heap, seconds, gc[0], gc[1],
            gc[2],
            group(log, "objects +(\\d+) to copy"), group(log, "in (\\d+) tasks"));
        System.out.print(row);
        Files.writeString(csv, row, StandardOpenOption.APPEND);
      }
    }
  }

  /** Peak MiB in use before a collection, peak MiB in use after one, and the number of collections. */
  static long[] gc(String log) {
    Matcher m = Pattern.compile("(\\d+)M->(\\d+)M\\(\\d+M\\)").matcher(log);
    long before = 0, after = 0, count = 0;
    while (m.find()) {
      before = Math.max(before, Long.parseLong(m.group(1)));
      after = Math.max(after, Long.parseLong(m.group(2)));
      count++;
    }
    return new long[] {before, after, count};
  }

  private static long group(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  /**
   * An S3 Inventory report of {@code objects} synthetic objects (a partitioned dataset's keys; 90% of 1 KiB–4 MiB,
   * 9% up to 128 MiB, 1% up to 1 GiB), in CSV.gz files of 500,000 rows; written once.
   */
  static Path inventory(Path dir, long objects) throws Exception {
    Path manifest = dir.resolve("manifest.json");
    if (Files.exists(manifest)) return manifest;
    Files.createDirectories(dir.resolve("data"));
    SplittableRandom random = new SplittableRandom(42);
    List<String> files = new ArrayList<>();
    for (long first = 0; first < objects; first += ROWS_PER_FILE) {
      String name = String.format(Locale.ROOT, "part-%05d.csv.gz", files.size());
      try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(new GZIPOutputStream(
          Files.newOutputStream(dir.resolve("data").resolve(name)), 1 << 16), StandardCharsets.UTF_8), 1 << 16)) {
        for (long i = first; i < Math.min(objects, first + ROWS_PER_FILE); i++) {
          double u = random.nextDouble();
          long size = u < 0.90 ? 1024 + random.nextLong(4 << 20) : u < 0.99 ? (4L << 20) + random.nextLong(124L << 20)
              : (128L << 20) + random.nextLong(896L << 20);
          out.write(String.format(Locale.ROOT,
              "\"scale\",\"warehouse%%2Fevents%%2Fdate%%3D2026-11-%02d%%2Fhour%%3D%02d%%2Fpart-%05d-%016x.snappy.parquet\","
                  + "\"%d\",\"2026-11-30T10:00:00.000Z\",\"%016x%016x\"%n",
              1 + i % 30, i / 30 % 24, i % 100_000, random.nextLong(), size, random.nextLong(), random.nextLong()));
        }
      }
      files.add(name);
    }
    StringBuilder json = new
        StringBuilder("{\"sourceBucket\": \"scale\", \"destinationBucket\": \"arn:aws:s3:::inventory\", \"fileFormat\": \"CSV\",\n"
        + " \"fileSchema\": \"Bucket, Key, Size, LastModifiedDate, ETag\", \"files\": [\n");
    for (int i = 0; i < files.size(); i++) {
      json.append("  {\"key\": \"scale/config/data/").append(files.get(i)).append("\", \"size\": 1, \"MD5checksum\": \"00\"}")
          .append(i + 1 < files.size() ? ",\n" : "\n");
    }
    Files.writeString(manifest, json.append("]}\n").toString());
    return manifest;
  }
}
