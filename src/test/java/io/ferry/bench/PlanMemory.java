package io.ferry.bench;

import io.ferry.config.DirectoryConfig;
import io.ferry.config.PlanConfig;
import io.ferry.plan.Triage;
import io.ferry.store.Destination;
import io.ferry.store.StoreObject;
import io.ferry.store.file.FileStore;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The driver's memory for LIST + PLAN, per object: builds a listing of N synthetic objects shaped like a data lake
 * (keys like {@code warehouse/events/date=2026-11-07/hour=13/part-00042-<uuid>.snappy.parquet}, ETags, sizes from
 * 1 KiB to 1 GiB, mostly small), runs the planner's real triage for a directory destination (key checks, the
 * "a beside a/b" index, bundling, splitting) and reports the heap each step retains, measured after full GCs.
 *
 * <p>Usage: {@code PlanMemory [objects]} (default 1,000,000); {@code bench/plan-memory.sh} runs it with a fixed heap.
 */
public final class PlanMemory {
  private PlanMemory() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    long base = retained();
    List<StoreObject> listed = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < n; i++) {
      String key = String.format(Locale.ROOT, "warehouse/events/date=2026-11-%02d/hour=%02d/part-%05d-%016x%016x.snappy.parquet",
          1 + i % 30, i / 30 % 24, i % 100_000, random.nextLong(), random.nextLong());
      double u = random.nextDouble();
      long size = u < 0.90 ? 1024 + random.nextLong(4 << 20) : u < 0.99 ? (4L << 20) + random.nextLong(124L << 20)
          : (128L << 20) + random.nextLong(896L << 20);
      listed.add(new StoreObject(key, key, size, String.format("\"%016x%016x\"", random.nextLong(), random.nextLong()),
          1_790_000_000_000L + i));
    }
    long afterListing = retained();
    Destination destination = new FileStore(new DirectoryConfig("/tmp/ferry-plan-memory"), "run", 1 << 20).destination();
    Triage.Result result = Triage.plan(listed, new PlanConfig(64L << 20, 128L << 20, 128), destination.capabilities(), false,
        destination::rejection, o -> false);
    long afterPlan = retained();
    System.out.printf(Locale.ROOT, "objects %d, ranges %d, tasks %d, bytes %.1f TB%n", n, result.plan().ranges(),
        result.plan().tasks().size(), result.plan().bytes() / 1e12);
    System.out.printf(Locale.ROOT, "listing retained %.0f MB (%.0f bytes per object)%n", (afterListing - base) / 1e6,
        (double) (afterListing - base) / n);
    System.out.printf(Locale.ROOT, "listing + plan retained %.0f MB (%.0f bytes per object)%n", (afterPlan - base) / 1e6,
        (double) (afterPlan - base) / n);
    if (listed.size() + result.rejected().size() < 0) System.out.println(); // keep both reachable until here
  }

  private static long retained() {
    for (int i = 0; i < 3; i++) System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
