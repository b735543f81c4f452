package io.ferry.store.listing;

import io.ferry.store.KeyOrder;
import io.ferry.store.Shard;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The key-space split against a sorted set that answers as ListObjectsV2 does (keys after start-after, in UTF-8 order,
 * at most max-keys): every key is in exactly one shard, whatever the keys, and common layouts split evenly.
 */
class KeySpaceTest {
  /** A bucket in memory; counts its requests. */
  static final class Bucket implements KeySpace.Pages {
    final NavigableSet<String> keys;
    final AtomicInteger requests = new AtomicInteger();

    /** A server that orders keys as AWS S3 does, by UTF-8 bytes. */
    Bucket(List<String> keys) {
      this(keys, KeyOrder.COMPARATOR);
    }

    Bucket(List<String> keys, java.util.Comparator<String> order) {
      this.keys = new TreeSet<>(order);
      this.keys.addAll(keys);
    }

    @Override
    public List<String> first(String prefix, String after, int max) {
      requests.incrementAndGet();
      List<String> page = new ArrayList<>();
      for (String k : after.isEmpty() ? keys : keys.tailSet(after, false)) {
        if (page.size() == max) break;
        if (k.startsWith(prefix)) page.add(k);
        else if (keys.comparator().compare(k, prefix) > 0) break;
      }
      return page;
    }

    @Override
    public KeySpace.Level level(String prefix, int max) {
      requests.incrementAndGet();
      List<String> objects = new ArrayList<>();
      java.util.TreeSet<String> folders = new java.util.TreeSet<>(keys.comparator());
      for (String k : keys) {
        if (!k.startsWith(prefix)) continue;
        int slash = k.indexOf('/', prefix.length());
        if (slash < 0) objects.add(k);
        else folders.add(k.substring(0, slash + 1));
      }
      boolean truncated = objects.size() + folders.size() > max;
      if (truncated) return new KeySpace.Level(List.of(), List.of(), true); // what a first page gives is not used
      return new KeySpace.Level(objects, new ArrayList<>(folders), false);
    }

    /** Lists a shard as S3Lister does: from start-after, in the server's order, up to the first key past its end. */
    List<String> list(Shard shard) {
      List<String> out = new ArrayList<>();
      for (String k : shard.after().isEmpty() ? keys : keys.tailSet(shard.after(), false)) {
        if (!k.startsWith(shard.prefix())) {
          if (keys.comparator().compare(k, shard.prefix()) > 0) break;
          continue;
        }
        if (shard.beyond(k)) break;
        if (!shard.recursive() && k.indexOf('/', shard.prefix().length()) >= 0) continue; // a delimiter listing: its own objects
        out.add(k);
      }
      return out;
    }

    /** How many keys each shard's listing gives; fails if any key under the prefix is listed by none or by two. */
    List<Integer> sizes(List<Shard> shards) {
      return sizes(shards, "");
    }

    List<Integer> sizes(List<Shard> shards, String root) {
      List<Integer> sizes = new ArrayList<>();
      java.util.Map<String, Integer> listed = new java.util.HashMap<>();
      for (Shard s : shards) {
        List<String> got = list(s);
        sizes.add(got.size());
        got.forEach(k -> listed.merge(k, 1, Integer::sum));
      }
      for (String k : keys) {
        if (k.startsWith(root)) assertThat(listed.getOrDefault(k, 0)).as("listings of %s", k).isEqualTo(1);
      }
      return sizes;
    }
  }

  private static List<Shard> split(Bucket b, String prefix, int target) throws IOException {
    List<Shard> shards = KeySpace.split(prefix, target, b, 4);
    assertThat(shards).isNotEmpty(); // coverage (each key listed once) is checked by listing them: Bucket.sizes
    return shards;
  }

  private static List<String> numbered(String format, int n) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) keys.add(String.format(Locale.ROOT, format, i));
    return keys;
  }

  @Test
  void aFlatRunOfNumberedKeysSplitsAtItsDigitsNotAtWhatItsFirstPageShares() throws IOException {
    Bucket b = new Bucket(numbered("img_%06d.jpg", 200_000));
    List<Integer> sizes = b.sizes(split(b, "", 16));
    // img_0 .. img_1: the first page shares "img_000"; probes widen it to "img_" and "img_0", "img_1" are the splits
    assertThat(sizes.stream().filter(n -> n > 0).count()).isGreaterThanOrEqualTo(16);
    assertThat(sizes.stream().mapToInt(Integer::intValue).max().orElseThrow()).isLessThanOrEqualTo(200_000 / 10);
    assertThat(b.requests.get()).isLessThan(200);
  }

  /** The LIST requests listing shards of these sizes takes: a page per 1,000 keys, and the one that finds the end. */
  private static int listingPages(List<Integer> sizes) {
    return sizes.stream().mapToInt(n -> n / KeySpace.PAGE + 1).sum();
  }

  @Test
  void aFlatFolderOfTwentyThousandKeysIsListedInAboutItsPages() throws IOException {
    // was 171 shards and 176 LIST requests on the executors, after as many on the driver (issue 25)
    Bucket b = new Bucket(numbered("data/obj-%05d", 20_000));
    List<Shard> shards = split(b, "data/", 64);
    List<Integer> sizes = b.sizes(shards, "data/");
    assertThat(b.requests.get()).as("requests splitting").isLessThanOrEqualTo(40);
    assertThat(shards).hasSizeLessThanOrEqualTo(6);
    assertThat(listingPages(sizes)).as("requests listing").isLessThanOrEqualTo(26);
  }

  @Test
  void aMillionKeysStillSplitIntoAboutTheTarget() throws IOException {
    Bucket b = new Bucket(numbered("k%07d", 1_000_000));
    List<Integer> sizes = b.sizes(split(b, "", 64));
    assertThat(sizes.stream().filter(n -> n > 0).count()).isGreaterThanOrEqualTo(32);
    assertThat(sizes.stream().mapToInt(Integer::intValue).max().orElseThrow()).isLessThanOrEqualTo(1_000_000 / 16);
    assertThat(b.requests.get()).as("requests splitting").isLessThan(600);
  }

  @Test
  void foldersSplitIntoOneShardPerSubfolderListedUnderIt() throws IOException {
    List<String> keys = new ArrayList<>(List.of("top.txt", "events/readme"));
    for (int d = 1; d <= 40; d++) keys.addAll(numbered("events/date=2026-01-" + String.format(Locale.ROOT, "%02d", d) + "/part-%04d", 30));
    Bucket b = new Bucket(keys);
    List<Shard> shards = split(b, "", 16);
    List<Integer> sizes = b.sizes(shards);
    // the root's own objects, "events/"'s own objects, and one shard per day under its folder
    assertThat(shards).contains(new Shard("", "", "", false), new Shard("events/", "", "", false),
        new Shard("events/date=2026-01-07/", "", "", true));
    assertThat(shards).hasSize(42);
    assertThat(sizes.stream().mapToInt(Integer::intValue).max().orElseThrow()).isEqualTo(30);
    assertThat(b.requests.get()).isEqualTo(2); // two delimiter listings
  }

  @Test
  void foldersSplitAtTheirNames() throws IOException {
    List<String> keys = new ArrayList<>();
    for (String day : List.of("2024-01-01", "2024-01-02", "2024-02-01", "2025-01-01")) keys.addAll(numbered("logs/" + day + "/part-%05d",
        5_000));
    Bucket b = new Bucket(keys);
    List<Integer> sizes = b.sizes(split(b, "logs/", 8), "logs/");
    assertThat(sizes.stream().filter(n -> n > 0).count()).isGreaterThanOrEqualTo(4);
    assertThat(sizes.stream().mapToInt(Integer::intValue).max().orElseThrow()).isLessThanOrEqualTo(5_000);
  }

  @Test
  void aSmallOrEmptyKeySpaceIsOneShard() throws IOException {
    Bucket empty = new Bucket(List.of());
    assertThat(split(empty, "", 64)).singleElement().isEqualTo(Shard.all(""));
    Bucket small = new Bucket(numbered("k%03d", 999));
    assertThat(small.sizes(split(small, "", 64))).containsExactly(999);
    assertThat(small.requests.get()).isEqualTo(1);
  }

  @Test
  void keysAtShardEdgesUnicodeAndKeysOutsideThePrefixLandOnce() throws IOException {
    List<String> keys = new ArrayList<>(numbered("p/a%05d", 12_000));
    // the bounds themselves ("p/a0", "p/a1", ...) as keys, keys between alphabet characters, and above U+FFFF
    for (String edge : List.of("p/a", "p/a0", "p/a1", "p/a2", "p/a9", "p/aZ", "p/a_", "p/a-", "p/a~", "p/a\u00e9t\u00e9",
        "p/a\uFF21", "p/a\uD83D\uDE00", "p/a\uD83D\uDE00x", "p/a" + KeyOrder.LAST, "p/b", "p/", "p0", "o")) keys.add(edge);
    keys.addAll(numbered("p/a\uD83D\uDE00%04d", 9_000));
    Bucket b = new Bucket(keys);
    List<Shard> shards = split(b, "p/", 12);
    assertThat(shards.size()).isGreaterThan(1);
    List<Integer> sizes = b.sizes(shards, "p/");
    assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo((int) keys.stream().filter(k -> k.startsWith("p/")).count());
  }

  @Test
  void aServerThatOrdersByUtf16UnitsAsS3ProxyDoesGetsTheSameCoverage() throws IOException {
    List<String> keys = new ArrayList<>(numbered("u/\uFF21%04d", 4_000)); // U+FF21: after the surrogates in UTF-16 order
    keys.addAll(numbered("u/\uD83D\uDE00%04d", 4_000)); // U+1F600: before U+FF21 in UTF-16 order, after it in UTF-8
    keys.addAll(numbered("u/a%04d", 4_000));
    for (java.util.Comparator<String> order : List.of(KeyOrder.COMPARATOR, java.util.Comparator.<String>naturalOrder())) {
      Bucket b = new Bucket(keys, order);
      List<Integer> sizes = b.sizes(split(b, "u/", 16), "u/");
      assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(keys.size());
      assertThat(b.requests.get()).isLessThan(100);
    }
  }

  @Test
  void utf8OrderPutsCharactersAboveUffffAfterTheRest() {
    assertThat(KeyOrder.compare("a\uFF21", "a\uD83D\uDE00")).isNegative(); // U+FF21 < U+1F600, though its UTF-16 unit is larger
    assertThat("a\uFF21".compareTo("a\uD83D\uDE00")).isPositive();
    assertThat(KeyOrder.compare("a", "ab")).isNegative();
    assertThat(KeyOrder.compare("ab", "ab")).isZero();
    assertThat(KeyOrder.compare("a\uD83D\uDE00", "a" + KeyOrder.LAST)).isNegative();
    assertThat(KeyOrder.commonPrefix("x\uD83D\uDE00", "x\uD83D\uDE01")).isEqualTo("x"); // never half a pair
  }
}
