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
 * A listing's rounds ({@link KeySpace#list}, as spark/Listing runs them) against a sorted set that answers as
 * ListObjectsV2 does (keys after start-after or a token, in UTF-8 order or S3Proxy's UTF-16 order, at most max-keys, by
 * delimiter on request): every key is listed exactly once, whatever the keys, no page is read twice, and common layouts
 * spread over about the target's shards.
 */
public class KeySpaceTest {
  /** A bucket in memory; counts its requests. */
  public static final class Bucket implements KeySpace.Pages<String> {
    public final NavigableSet<String> keys;
    final AtomicInteger requests = new AtomicInteger();

    /** A server that orders keys as AWS S3 does, by UTF-8 bytes. */
    public Bucket(List<String> keys) {
      this(keys, KeyOrder.COMPARATOR);
    }

    public Bucket(List<String> keys, java.util.Comparator<? super String> order) {
      this.keys = new TreeSet<>(order);
      this.keys.addAll(keys);
    }

    /** The token of the next page is the last key or folder of this one. */
    @Override
    public KeySpace.Page<String> page(String prefix, String after, String token, int max, boolean level) {
      requests.incrementAndGet();
      String from = token != null ? token : after;
      List<String> entries = new ArrayList<>();
      List<String> folders = new ArrayList<>();
      String last = null;
      for (String k : from.isEmpty() ? keys : keys.tailSet(from, false)) {
        if (!k.startsWith(prefix)) {
          if (keys.comparator().compare(k, prefix) > 0) break;
          continue;
        }
        int slash = level ? k.indexOf('/', prefix.length()) : -1;
        String entry = slash < 0 ? k : k.substring(0, slash + 1);
        if (entry.equals(last)) continue; // a folder rolls up its keys
        if (entries.size() + folders.size() == max) return new KeySpace.Page<>(entries, folders, lastOf(entries, folders));
        (slash < 0 ? entries : folders).add(entry);
        last = entry;
      }
      return new KeySpace.Page<>(entries, folders, null);
    }

    private String lastOf(List<String> entries, List<String> folders) {
      String e = entries.isEmpty() ? null : entries.get(entries.size() - 1);
      String f = folders.isEmpty() ? null : folders.get(folders.size() - 1);
      // the next page starts after every key of the last folder
      String folderEnd = f == null ? null : f + KeyOrder.LAST + KeyOrder.LAST;
      if (e == null) return folderEnd;
      if (folderEnd == null) return e;
      return keys.comparator().compare(e, f) > 0 ? e : folderEnd;
    }

    @Override
    public String key(String entry) {
      return entry;
    }
  }

  /** What a listing's rounds did: each key's listings, each shard's size and the shards of each round. */
  record Listed(java.util.Map<String, Integer> times, List<Integer> sizes, List<Integer> rounds, int requests) {
    /** Fails unless every key under {@code root} was listed exactly once, and nothing else was. */
    Listed coversOnce(Bucket b, String root) {
      for (String k : b.keys) {
        assertThat(times.getOrDefault(k, 0)).as("listings of %s", k).isEqualTo(k.startsWith(root) ? 1 : 0);
      }
      assertThat(times.keySet()).allMatch(b.keys::contains);
      return this;
    }

    int largest() {
      return sizes.stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    int lastRound() {
      return rounds.get(rounds.size() - 1);
    }
  }

  /**
   * The rounds of listing {@code prefix} with {@code target} shards, as spark/Listing runs them, in full pages; first
   * checked in pages of 999 keys, whose first round splits after {@link KeySpace#PROVEN} pages as every round did when
   * these edges were found.
   */
  private static Listed list(Bucket b, String prefix, int target) throws IOException {
    Bucket again = new Bucket(new ArrayList<>(b.keys), b.keys.comparator());
    list(again, prefix, target, 999).coversOnce(again, prefix);
    return list(b, prefix, target, KeySpace.PAGE);
  }

  private static Listed list(Bucket b, String prefix, int target, int pageKeys) throws IOException {
    java.util.Map<String, Integer> times = new java.util.HashMap<>();
    List<Integer> sizes = new ArrayList<>();
    List<Integer> rounds = new ArrayList<>();
    List<Shard> open = List.of(Shard.all(prefix));
    for (int round = 0; !open.isEmpty(); round++) {
      assertThat(round).as("rounds").isLessThanOrEqualTo(KeySpace.LEVELS);
      rounds.add(open.size());
      List<Shard> next = new ArrayList<>();
      for (Shard shard : open) {
        int[] n = {0};
        next.addAll(KeySpace.list(shard, KeySpace.pages(open.size(), round, target), pageKeys, b, k -> {
          times.merge(k, 1, Integer::sum);
          n[0]++;
        }));
        sizes.add(n[0]);
      }
      open = next;
    }
    return new Listed(times, sizes, rounds, b.requests.get());
  }

  private static List<String> numbered(String format, int n) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) keys.add(String.format(Locale.ROOT, format, i));
    return keys;
  }

  @Test
  void aFlatRunOfNumberedKeysSplitsAtItsDigitsNotAtWhatItsFirstPageShares() throws IOException {
    Bucket b = new Bucket(numbered("img_%06d.jpg", 200_000));
    Listed l = list(b, "", 16).coversOnce(b, "");
    // img_0 .. img_1: the first page shares "img_000"; probes widen it to "img_" and "img_0", "img_1" are the splits
    assertThat(l.lastRound()).isGreaterThanOrEqualTo(16);
    assertThat(l.largest()).isLessThanOrEqualTo(200_000 / 10);
    assertThat(l.requests()).isLessThan(200 + 100);
  }

  @Test
  void aKeyThatIsAPiecesUpperBoundIsListedWhenTheProbeFindsIt() throws IOException {
    // the piece (a07999, b] is split again after 8 pages; the probe past everything under "a" finds "b", the piece's own
    // last key: the pieces it was split into held only keys under "a", and "b" was listed by no shard
    for (int n : new int[] {20_000, 50_000}) {
      List<String> keys = new ArrayList<>(numbered("a%05d", n));
      keys.addAll(List.of("b", "c"));
      Bucket b = new Bucket(keys);
      list(b, "", 100).coversOnce(b, ""); // a target above the pieces of the first round: they are split again
    }
  }

  @Test
  void aFlatFolderOfTwentyThousandKeysIsListedInAboutItsPages() throws IOException {
    // was 171 shards and 176 LIST requests on the executors, after as many on the driver (issue 25); then 60 in all,
    // 8 pages of them read twice
    Bucket b = new Bucket(numbered("data/obj-%05d", 20_000));
    Listed l = list(b, "data/", 64).coversOnce(b, "data/");
    assertThat(l.rounds().get(0)).isEqualTo(1);
    assertThat(l.sizes().get(0)).as("keys the first round lists").isEqualTo(KeySpace.FIRST * KeySpace.PAGE);
    assertThat(l.requests()).as("requests: its 20 pages (a server may answer a 21st, empty)").isLessThanOrEqualTo(21);
  }

  @Test
  void piecesNoKeyShowedAreProbedOnceAndJoinedWhenEmpty() throws IOException {
    // 20,000 keys in pages of 999: the split after 7,992 asks for data/obj-0002 .. 0009 and the rest, which hold
    // nothing; 34 requests before
    Bucket b = new Bucket(numbered("data/obj-%07d", 20_000));
    Listed l = list(b, "data/", 64, 999).coversOnce(b, "data/");
    assertThat(l.requests()).as("requests").isLessThanOrEqualTo(28);
    // in full pages, 50,000 keys: the split after 20,000 asks for data/obj-002 .. 009 and the rest, six of them empty
    Bucket c = new Bucket(numbered("data/obj-%07d", 50_000));
    assertThat(list(c, "data/", 64).coversOnce(c, "data/").requests()).as("requests").isLessThanOrEqualTo(67);
    // keys again after a gap: the probe finds them, the empty pieces before them join theirs, and all are listed
    List<String> gap = new ArrayList<>(numbered("g/%05d", 12_000));
    gap.addAll(numbered("g/7%04d", 3_000));
    Bucket g = new Bucket(gap);
    list(g, "g/", 64).coversOnce(g, "g/");
  }

  @Test
  void overRandomRunsOfNumberedKeysEveryKeyIsListedOnce() throws IOException {
    for (long seed = 1; seed <= 60; seed++) {
      java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
      List<String> keys = new ArrayList<>();
      for (int run = 1 + r.nextInt(5); run > 0; run--) { // runs of numbered keys at random digits, with random gaps
        String head = List.of("", "a", "x/", "img_", "9", "\u00e9", "\uD83D\uDE00").get(r.nextInt(7)) + r.nextInt(10);
        int width = 2 + r.nextInt(4);
        int from = r.nextInt((int) Math.pow(10, width));
        for (int i = 0, n = r.nextInt(3_000); i < n; i++) {
          keys.add(head + String.format(Locale.ROOT, "%0" + width + "d", (from + i * (1 + r.nextInt(3))) % (int) Math.pow(10, width)));
        }
      }
      for (java.util.Comparator<String> order : List.of(KeyOrder.COMPARATOR, java.util.Comparator.<String>naturalOrder())) {
        Bucket b = new Bucket(keys, order);
        list(b, "", 2 + r.nextInt(80), 1 + r.nextInt(100)).coversOnce(b, "");
      }
    }
  }

  @Test
  void aMillionKeysStillSpreadOverAboutTheTarget() throws IOException {
    Bucket b = new Bucket(numbered("k%07d", 1_000_000));
    Listed l = list(b, "", 64).coversOnce(b, "");
    assertThat(l.lastRound()).isGreaterThanOrEqualTo(32);
    assertThat(l.largest()).isLessThanOrEqualTo(1_000_000 / 16);
    assertThat(l.requests()).as("requests").isLessThan(1_000 + 400);
  }

  @Test
  void foldersAreListedByDelimiterAndEachSubfolderIsAShard() throws IOException {
    List<String> keys = new ArrayList<>(List.of("top.txt", "events/readme"));
    for (int d = 1; d <= 40; d++) keys.addAll(numbered("events/date=2026-01-" + String.format(Locale.ROOT, "%02d", d) + "/part-%04d", 30));
    Bucket b = new Bucket(keys);
    Listed l = list(b, "", 16).coversOnce(b, "");
    // the root by delimiter (top.txt and events/), events/ by delimiter (its readme and 40 days), each day under its folder
    assertThat(l.rounds()).containsExactly(1, 1, 40);
    assertThat(l.largest()).isEqualTo(30);
    assertThat(l.requests()).isEqualTo(42);
  }

  @Test
  void foldersSplitAtTheirNames() throws IOException {
    List<String> keys = new ArrayList<>();
    for (String day : List.of("2024-01-01", "2024-01-02", "2024-02-01", "2025-01-01")) keys.addAll(numbered("logs/" + day + "/part-%05d",
        5_000));
    Bucket b = new Bucket(keys);
    Listed l = list(b, "logs/", 8).coversOnce(b, "logs/");
    assertThat(l.rounds()).containsExactly(1, 4);
    assertThat(l.largest()).isLessThanOrEqualTo(5_000);
  }

  @Test
  void aSmallOrEmptyKeySpaceIsOneRequest() throws IOException {
    Bucket empty = new Bucket(List.of());
    assertThat(list(empty, "", 64).requests()).isEqualTo(1);
    Bucket small = new Bucket(numbered("k%03d", 999));
    Listed l = list(small, "", 64).coversOnce(small, "");
    assertThat(l.sizes()).containsExactly(999);
    assertThat(l.requests()).isEqualTo(1);
  }

  @Test
  void aFolderWithSubfoldersBeyondItsFirstPageIsListedWhole() throws IOException {
    List<String> keys = new ArrayList<>(numbered("f/a%05d", 3_000));
    keys.addAll(numbered("f/z/%04d", 2_000)); // a subfolder after the first page of the delimiter listing
    Bucket b = new Bucket(keys);
    list(b, "f/", 64).coversOnce(b, "f/");
    Bucket first = new Bucket(List.of("g/0/x", "g/1", "g/2"));
    list(first, "g/", 64).coversOnce(first, "g/");
  }

  @Test
  void keysAtShardEdgesUnicodeAndKeysOutsideThePrefixLandOnce() throws IOException {
    List<String> keys = new ArrayList<>(numbered("p/a%05d", 12_000));
    // the bounds themselves ("p/a0", "p/a1", ...) as keys, keys between alphabet characters, and above U+FFFF
    for (String edge : List.of("p/a", "p/a0", "p/a1", "p/a2", "p/a9", "p/aZ", "p/a_", "p/a-", "p/a~", "p/a\u00e9t\u00e9",
        "p/a\uFF21", "p/a\uD83D\uDE00", "p/a\uD83D\uDE00x", "p/a" + KeyOrder.LAST, "p/b", "p/", "p0", "o")) keys.add(edge);
    keys.addAll(numbered("p/a\uD83D\uDE00%04d", 9_000));
    for (java.util.Comparator<String> order : List.of(KeyOrder.COMPARATOR, java.util.Comparator.<String>naturalOrder())) {
      Bucket b = new Bucket(keys, order);
      Listed l = list(b, "p/", 12).coversOnce(b, "p/");
      assertThat(l.rounds().size()).isGreaterThan(1);
    }
  }

  @Test
  void aServerThatOrdersByUtf16UnitsAsS3ProxyDoesGetsTheSameCoverage() throws IOException {
    List<String> keys = new ArrayList<>(numbered("u/\uFF21%04d", 4_000)); // U+FF21: after the surrogates in UTF-16 order
    keys.addAll(numbered("u/\uD83D\uDE00%04d", 4_000)); // U+1F600: before U+FF21 in UTF-16 order, after it in UTF-8
    keys.addAll(numbered("u/a%04d", 9_000));
    keys.add("u/a\uE000"); // after "u/a" + LAST in UTF-16 order: a probe finds it under the common prefix
    keys.addAll(numbered("u/b%04d", 3_000)); // and keys after it that do not share that prefix
    for (java.util.Comparator<String> order : List.of(KeyOrder.COMPARATOR, java.util.Comparator.<String>naturalOrder())) {
      Bucket b = new Bucket(keys, order);
      Listed l = list(b, "u/", 16).coversOnce(b, "u/");
      assertThat(l.requests()).isLessThan(100);
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
