package io.ferry.bench;

import io.ferry.copy.RangeResult;
import io.ferry.report.HtmlReport;
import io.ferry.report.PartitionStats;
import io.ferry.report.RunStats;
import io.ferry.report.RunSummary;
import io.ferry.store.StoreObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What the report costs for a run of many ranges (issue 26: pages that stay fast at 10 million): synthetic ranges of
 * an hour's copy on 8 executors, gathered as the cluster gathers them (a {@link RunStats} per partition, merged), then
 * the page drawn from them with a task per 100 ranges. Prints the time per range of the gathering, the merge's, the
 * drawing's and the page's size.
 *   ferry_lab_java io.ferry.bench.ReportScale [ranges] [partitions]
 */
public final class ReportScale {
  private ReportScale() {}

  public static void main(String[] args) {
    long ranges = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    long hour = 3_600_000L;
    SplittableRandom random = new SplittableRandom(26);
    long gather = 0;
    long merge = 0;
    RunStats all = null;
    List<PartitionStats> tasks = new ArrayList<>();
    long perPartition = ranges / partitions;
    for (int p = 0; p < partitions; p++) {
      RunStats part = new RunStats(0, hour, 120);
      String executor = String.valueOf(p % 8);
      long started = System.nanoTime();
      for (long i = 0; i < perPartition; i++) {
        long bytes = 1L + random.nextLong(16L << 20);
        long start = random.nextLong(hour - 10_000);
        long duration = 50 + random.nextLong(5_000);
        String key = "k/" + p + "/" + i;
        part.add(RangeResult.of(new StoreObject(key, key, bytes, "e", 0), "/d/" + key).task(p * perPartition + i).part(1, 1, 0, bytes)
            .bytes(bytes, bytes).times(start, start + duration, 20_000_000, duration * 1_000_000).attempts(random.nextInt(100) == 0 ? 2 : 1)
            .by("get+write", executor, "host-" + executor).digests("00000000", "", "").streams(32).build());
      }
      gather += System.nanoTime() - started;
      for (long t = 0; t < perPartition / 100; t++) {
        long start = random.nextLong(hour - 60_000);
        tasks.add(new PartitionStats(p * 1000 + (int) t, executor, "host-" + executor, 100, 100, 100L << 20, start,
            start + 1_000 + random.nextLong(59_000), 1, 0));
      }
      started = System.nanoTime();
      all = all == null ? part : all.merge(part);
      merge += System.nanoTime() - started;
    }
    long started = System.nanoTime();
    String page = HtmlReport.render(summary(ranges), all, tasks);
    long render = System.nanoTime() - started;
    System.out.printf(Locale.ROOT,
        "| ranges | partitions | tasks drawn from | gather ns per range | merge ms in all | page ms | page KiB |%n");
    System.out.printf(Locale.ROOT, "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |%n");
    System.out.printf(Locale.ROOT, "| %,d | %d | %,d | %.0f | %.0f | %.0f | %.0f |%n", perPartition * partitions, partitions, tasks.size(),
        (double) gather / (perPartition * partitions), merge / 1e6, render / 1e6, page.getBytes(StandardCharsets.UTF_8).length / 1024.0);
  }

  private static RunSummary summary(long ranges) {
    return new RunSummary(RunSummary.NAME, RunSummary.VERSION, "scale", "scale-run", "s3://b/", "/d", "2026-12-04T00:00:00Z",
        "2026-12-04T01:00:00Z", 3_600, new RunSummary.Objects(ranges, ranges, ranges, 0, 0, 0, 0, 0, 0, 0, 0),
        new RunSummary.Bytes(0, 0, 0), new RunSummary.Ranges(ranges, ranges, 0, ranges / 100, 0),
        new RunSummary.Throughput(0, 3_600, 0, 0, 0, 0, 0, 0), Map.of(), Map.of(), Map.of("copy", 3_600.0), List.of(), List.of(), "/r",
        null, null, List.of(), null);
  }
}
