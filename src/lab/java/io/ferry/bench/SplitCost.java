package io.ferry.bench;

import io.ferry.store.KeyOrder;
import io.ferry.store.Shard;
import io.ferry.store.listing.KeySpace;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The LIST requests of a listing's rounds ({@link KeySpace#list}, as spark/Listing runs them) for one flat folder of
 * numbered keys at several sizes, against a bucket in memory that answers as ListObjectsV2 does: the rounds, the
 * shards listed in the last, and the requests in all (pages, probes, and the one that finds each shard's end). Every
 * key is checked to be listed once. Prints a Markdown table.
 *   ferry_lab_java io.ferry.bench.SplitCost [target] [keys...]
 * with FERRY_SPLIT_KEYS, a format for the keys' numbers (default {@code data/obj-%07d}; the bench's flat workload is
 * {@code flat/f-%06d}).
 */
public final class SplitCost {
  private SplitCost() {}

  public static void main(String[] args) throws Exception {
    int target = args.length > 0 ? Integer.parseInt(args[0]) : 64;
    List<Integer> sizes = new ArrayList<>();
    for (int i = 1; i < args.length; i++) sizes.add(Integer.parseInt(args[i]));
    if (sizes.isEmpty()) sizes = List.of(1_000, 20_000, 100_000, 1_000_000);
    String format = System.getenv().getOrDefault("FERRY_SPLIT_KEYS", "data/obj-%07d");
    String folder = format.substring(0, format.lastIndexOf('/') + 1);
    System.out.println("| keys | target | rounds | shards in the last round | requests | requests per 1,000 keys |");
    System.out.println("| ---: | ---: | ---: | ---: | ---: | ---: |");
    for (int n : sizes) {
      NavigableSet<String> keys = new TreeSet<>(KeyOrder.COMPARATOR);
      for (int i = 0; i < n; i++) keys.add(String.format(Locale.ROOT, format, i));
      long[] requests = {0};
      KeySpace.Pages<String> pages = new KeySpace.Pages<>() {
        @Override
        public KeySpace.Page<String> page(String prefix, String after, String token, int max, boolean level) {
          requests[0]++; // one flat folder: a delimiter listing gives the same keys
          String from = token != null ? token : after;
          List<String> page = new ArrayList<>();
          for (String k : from.isEmpty() ? keys.tailSet(prefix, true) : keys.tailSet(from, false)) {
            if (!k.startsWith(prefix)) break;
            if (page.size() == max) return new KeySpace.Page<>(page, List.of(), page.get(page.size() - 1));
            page.add(k);
          }
          return new KeySpace.Page<>(page, List.of(), null);
        }

        @Override
        public String key(String entry) {
          return entry;
        }
      };
      long listed = 0;
      int rounds = 0;
      int last = 0;
      List<Shard> open = List.of(Shard.all(folder));
      for (int round = 0; !open.isEmpty(); round++) {
        List<Shard> next = new ArrayList<>();
        long[] got = {0};
        for (Shard shard : open) next.addAll(KeySpace.list(shard, KeySpace.pages(open.size(), round, target), pages, k -> got[0]++));
        listed += got[0];
        rounds++;
        last = open.size();
        open = next;
      }
      if (listed != n) throw new IllegalStateException(listed + " keys listed of " + n);
      System.out.printf(Locale.ROOT, "| %,d | %d | %d | %d | %d | %.2f |%n", n, target, rounds, last, requests[0],
          requests[0] * 1000.0 / n);
    }
  }
}
