package io.ferry.bench;

import io.ferry.copy.RangeResult;
import io.ferry.report.DatasetFiles;
import io.ferry.report.Datasets;
import io.ferry.store.StoreObject;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * The CPU of writing the ranges dataset (Parquet and CSV, {@link DatasetFiles#writePart}) for a part of a flat job's
 * rows: every key, path, digest and time its own, as 64 KiB objects copied one range each give them. Writes the part
 * {@code rounds} times in one JVM and prints the CPU-ms per 1,000 rows of each, so the JIT's warm-up shows apart.
 *   ferry_lab_java io.ferry.bench.DatasetCost [rows] [rounds]
 */
public final class DatasetCost {
  private DatasetCost() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    List<RangeResult> rows = flatRows(n);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    Path dir = Files.createTempDirectory("ferry-dataset-cost");
    Configuration conf = new Configuration();
    for (int r = 0; r < rounds; r++) {
      long before = cpu.getCurrentThreadCpuTime();
      DatasetFiles.writePart(Datasets.ranges("bench", "run-" + r), rows.iterator(), dir.resolve("run-" + r).toUri().toString(), 0,
          "0", conf, x -> { });
      long ms = (cpu.getCurrentThreadCpuTime() - before) / 1_000_000;
      long bytes;
      try (var files = Files.walk(dir.resolve("run-" + r))) {
        bytes = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
      }
      System.out.printf(Locale.ROOT, "round %d: %d rows, %d CPU-ms, %.1f CPU-ms per 1,000 rows, %,d bytes on disk%n", r, n, ms,
          ms * 1000.0 / n, bytes);
    }
  }

  /** {@code n} ranges rows as a flat job of 64 KiB objects gives them: every key, digest and time its own. */
  static List<RangeResult> flatRows(int n) {
    List<RangeResult> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String key = String.format(Locale.ROOT, "flat/f-%06d", i);
      long start = 1_700_000_000_000L + i * 3L;
      String etag = String.format(Locale.ROOT, "\"%032x\"", (long) key.hashCode() * 31L);
      rows.add(RangeResult.of(new StoreObject(key, key, 65_536, etag, start), "/data/copy/" + key)
          .task(i / 500).part(1, 1, 0, 65_536).bytes(65_536, 65_536)
          .times(start, start + 7 + i % 13, 1_000_000L + i * 977L, 7_000_000L + i * 131L).attempts(1)
          .by("get+write", String.valueOf(i % 2), "host-a")
          .digests(String.format(Locale.ROOT, "%08x", i * 2_654_435_761L & 0xffffffffL), "md5:" + Integer.toHexString(key.hashCode()),
              "md5:" + Integer.toHexString(key.hashCode()))
          .build());
    }
    return rows;
  }
}
