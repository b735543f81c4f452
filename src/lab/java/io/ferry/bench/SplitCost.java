package io.ferry.bench;

import io.ferry.store.KeyOrder;
import io.ferry.store.Shard;
import io.ferry.store.listing.KeySpace;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The LIST requests of a listing, split and shards, for one flat folder of numbered keys at several sizes, against a
 * bucket in memory that answers as ListObjectsV2 does: the driver's split, the shards it gives and the pages listing
 * them takes (a page per 1,000 keys and the one that finds the end). Prints a Markdown table.
 *   ferry_lab_java io.ferry.bench.SplitCost [target] [keys...]
 */
public final class SplitCost {
  private SplitCost() {}

  public static void main(String[] args) throws Exception {
    int target = args.length > 0 ? Integer.parseInt(args[0]) : 64;
    List<Integer> sizes = new ArrayList<>();
    for (int i = 1; i < args.length; i++) sizes.add(Integer.parseInt(args[i]));
    if (sizes.isEmpty()) sizes = List.of(1_000, 20_000, 100_000, 1_000_000);
    System.out.println("| keys | target | split requests | shards | listing requests | requests per 1,000 keys |");
    System.out.println("| ---: | ---: | ---: | ---: | ---: | ---: |");
    for (int n : sizes) {
      NavigableSet<String> keys = new TreeSet<>(KeyOrder.COMPARATOR);
      for (int i = 0; i < n; i++) keys.add(String.format(Locale.ROOT, "data/obj-%07d", i));
      AtomicInteger requests = new AtomicInteger();
      KeySpace.Pages pages = new KeySpace.Pages() {
        @Override
        public List<String> first(String prefix, String after, int max) {
          requests.incrementAndGet();
          List<String> page = new ArrayList<>();
          for (String k : after.isEmpty() ? keys.tailSet(prefix, true) : keys.tailSet(after, false)) {
            if (page.size() == max || !k.startsWith(prefix)) break;
            page.add(k);
          }
          return page;
        }

        @Override
        public KeySpace.Level level(String prefix, int max) {
          requests.incrementAndGet();
          return new KeySpace.Level(List.of(), List.of(), keys.size() > max); // one flat folder: only objects
        }
      };
      List<Shard> shards = KeySpace.split("data/", target, pages, 16);
      int split = requests.get();
      long listing = 0;
      for (Shard s : shards) {
        long in = 0;
        for (String k : s.after().isEmpty() ? keys.tailSet(s.prefix(), true) : keys.tailSet(s.after(), false)) {
          if (!k.startsWith(s.prefix()) || s.beyond(k)) break;
          in++;
        }
        listing += in / 1000 + 1;
      }
      System.out.printf(Locale.ROOT, "| %,d | %d | %d | %d | %d | %.2f |%n", n, target, split, shards.size(), listing,
          (split + listing) * 1000.0 / n);
    }
  }
}
