package io.ferry.store.listing;

import io.ferry.store.KeyOrder;
import io.ferry.store.Shard;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Lists a shard of a bucket's key space and, where it proves large, splits what is left of it, so that a listing
 * spreads over the cluster only where there are enough keys to pay for it and no page is read twice. A shard is read
 * for {@link #PROVEN} pages ({@link #FIRST} a whole folder in full pages); one that ends within them is listed. One
 * that does not has its rest split after the last key read, at the keys' common prefix followed by each character of a
 * fixed alphabet (and those seen there; pieces past the characters seen are probed once and joined where empty); the
 * rounds of a listing ({@code spark/Listing}) list those pieces in parallel, and split them again while there are
 * fewer than its target. A shard's common prefix is found from its pages and then widened by probes for the first key
 * after everything that starts with it, so keys such as {@code img_000001 .. img_999999} split at {@code
 * img_0 .. img_9}, not at the {@code img_00} their first page shares. Any split is correct (the pieces always cover
 * the rest exactly once); the alphabet only decides how even they are.
 *
 * <p>A folder (a shard of every key under a prefix) is first listed by delimiter: when one page holds its objects and
 * subfolders, its objects are listed and each subfolder is a shard of its own, so that a server that walks a folder's
 * files to list it (S3Proxy, MinIO) lists each folder alone. A folder with more entries than a page is read by pages.
 *
 * <p>No split bound holds a character at or above U+D800: servers differ in how they order keys with such characters
 * (AWS S3 by UTF-8 bytes, S3Proxy by UTF-16 units, which put U+E000–U+FFFF after the surrogates of U+10000 and up),
 * and against bounds below them both orders agree, so a shard's listing stops at its end on either kind of server. A
 * piece starts after the last key read whatever its characters: the server that read it applies {@code start-after}.
 */
public final class KeySpace {
  /** What a store answers to a ListObjectsV2 request, as a shard's listing reads it. */
  public interface Pages<T> {
    /**
     * At most {@code max} entries under {@code prefix} in key order: after {@code after}, or from {@code token} (a
     * page's {@link Page#next}) when it is not null; by delimiter '/' when {@code level}.
     */
    Page<T> page(String prefix, String after, String token, int max, boolean level) throws IOException;

    String key(T entry);
  }

  /** A page: its entries, its folders (by delimiter; each ending in '/') and the token of the next (null at the end). */
  public record Page<T>(List<T> entries, List<String> folders, String next) {
    boolean truncated() {
      return next != null;
    }
  }

  /** A ListObjectsV2 page. */
  public static final int PAGE = 1000;
  /** Rounds of splitting at most: each is one round of requests, about a character of key each. */
  public static final int LEVELS = 8;
  /** Pages a shard is read for before what is left of it is split: it has proven large enough to pay for pieces. */
  public static final int PROVEN = 8;
  /**
   * Full pages a whole folder (not yet split) is read for before it splits: a folder of up to 20,000 keys is listed in
   * about as many requests as pages (a server that walks the folder for each page, S3Proxy or MinIO, walks it 21 times,
   * not 28), for about a second of pages read in sequence before a large bucket's listing spreads. Smaller pages (set to
   * see rounds sooner) split after {@link #PROVEN}, as pieces do.
   */
  public static final int FIRST = 20;
  /** Pieces past the last character seen that are worth a probe for whether they hold any key. */
  static final int SPECULATIVE = 3;
  private static final String DIGITS = "0123456789";
  private static final String UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  private static final String LOWER = "abcdefghijklmnopqrstuvwxyz";

  private KeySpace() {}

  /**
   * How long a listing's round lists each of its {@code open} shards before what is left of them is split: for
   * {@link #PROVEN} pages while there are fewer than {@code target} and rounds are left (a whole folder longer: {@link
   * #budget}), else to their ends (0).
   */
  public static int pages(int open, int round, int target) {
    return open < target && round < LEVELS ? PROVEN : 0;
  }

  /**
   * The pages {@link #list} reads of {@code shard} before it splits the rest, in a round that lists for {@code pages}
   * (0: to its end): at least {@link #FIRST} for a whole folder in full pages.
   */
  public static int budget(Shard shard, int pages, int pageKeys) {
    boolean whole = shard.after().isEmpty() && shard.upTo().isEmpty();
    return pages > 0 && shard.recursive() && whole && pageKeys >= PAGE ? Math.max(pages, FIRST) : pages;
  }

  /**
   * Lists {@code shard}, handing each of its entries to {@code listed} in key order: to its end when {@code pages} is
   * 0, else for at most {@code pages} pages (a whole folder in full pages: at least {@link #FIRST}), then returns the
   * rest of it split into pieces (none when it ended).
   */
  public static <T> List<Shard> list(Shard shard, int pages, Pages<T> store, Consumer<T> listed) throws IOException {
    return list(shard, pages, PAGE, store, listed);
  }

  /** As {@link #list(Shard, int, Pages, Consumer)}, asking {@code pageKeys} keys a page (at most {@link #PAGE}). */
  public static <T> List<Shard> list(Shard shard, int pages, int pageKeys, Pages<T> store, Consumer<T> listed) throws IOException {
    boolean split = pages > 0 && shard.recursive();
    boolean whole = shard.after().isEmpty() && shard.upTo().isEmpty();
    int budget = budget(shard, pages, pageKeys);
    List<String> seen = new ArrayList<>();
    String last = shard.after();
    String token = null;
    int read = 0;
    Page<T> first = null;
    if (split && whole) {
      Page<T> level = store.page(shard.prefix(), "", null, pageKeys, true);
      if (!level.truncated()) {
        level.entries().forEach(listed);
        return level.folders().stream().map(Shard::all).toList();
      }
      // no folders among its first entries: they are the first page of every key under it, continued after the last
      if (level.folders().isEmpty() && !level.entries().isEmpty()) first = level;
    }
    for (; !split || read < budget; read++) {
      Page<T> page = first != null ? first : store.page(shard.prefix(), last, token, pageKeys, !shard.recursive());
      for (T entry : page.entries()) {
        String key = store.key(entry);
        if (shard.beyond(key)) return List.of();
        listed.accept(entry);
        if (split) seen.add(key);
        last = key;
      }
      if (!page.truncated() || last.equals(shard.upTo())) return List.of();
      token = page == first ? null : page.next();
      first = null;
    }
    return seen.isEmpty() ? List.of(new Shard(shard.prefix(), last, shard.upTo(), true)) : rest(shard, seen, last, store);
  }

  /** What is left of {@code shard} after {@code last}, the last of the keys {@code seen} in it, split into pieces. */
  private static <T> List<Shard> rest(Shard shard, List<String> seen, String last, Pages<T> store) throws IOException {
    String base = shard.prefix();
    String common = longer(KeyOrder.commonPrefix(seen.get(0), last), base);
    // widened until the first key after everything under it is past the shard, or there is none: then every key left
    // starts with it; a server ordering by UTF-16 units answers with one that does (U+E000-U+FFFF after LAST)
    boolean closed = common.equals(base);
    while (common.length() > base.length()) {
      List<String> probe = keys(store, store.page(base, common + KeyOrder.LAST, null, 1, false));
      // past the shard only beyond its bound: the bound is its last key, which must stay in a piece
      if (probe.isEmpty() || shard.beyond(probe.get(0))) {
        closed = true;
        break;
      }
      if (probe.get(0).startsWith(common)) break;
      seen.add(probe.get(0));
      common = longer(KeyOrder.commonPrefix(common, probe.get(0)), base);
      closed = common.equals(base);
    }
    if (!orderSafe(common)) return List.of(new Shard(base, last, shard.upTo(), true)); // nothing to split at: listed on as it is
    // split at the characters seen after the common prefix, and the rest of their classes (digits, letters)
    TreeSet<String> seenNext = new TreeSet<>(KeyOrder.COMPARATOR);
    for (String key : seen) {
      if (key.length() > common.length() && key.startsWith(common) && orderSafe(key.substring(common.length(), common.length() + 1))) {
        seenNext.add(key.substring(common.length(), common.length() + 1));
      }
    }
    TreeSet<String> bounds = new TreeSet<>(KeyOrder.COMPARATOR);
    for (String c : seenNext) {
      String alphabet = DIGITS.contains(c) ? DIGITS : UPPER.contains(c) ? UPPER : LOWER.contains(c) ? LOWER : c;
      for (int i = 0; i < alphabet.length(); i++) bounds.add(common + alphabet.charAt(i));
      bounds.add(common + c);
    }
    List<Shard> pieces = new ArrayList<>();
    String after = last;
    for (String bound : bounds) {
      if (KeyOrder.compare(bound, after) <= 0 || !shard.upTo().isEmpty() && KeyOrder.compare(bound, shard.upTo()) >= 0) continue;
      pieces.add(new Shard(common, after, bound, true)); // both ends start with the common prefix: so does every key between
      after = bound;
    }
    pieces.add(new Shard(closed ? common : base, after, shard.upTo(), true));
    return seenNext.isEmpty() ? pieces : withoutEmpty(pieces, common + seenNext.last(), shard, store);
  }

  /**
   * {@code pieces} with the empty ones among those past {@code evidenced} (the alphabet's characters after the last one
   * any key showed) joined to their neighbours: one probe for the first key after where they start stands for as many
   * LIST requests as there are pieces before that key's (a flat folder's split asks for a run of digits no key has, and
   * a server that walks the folder for every request pays a walk for each). Joining adjacent pieces never changes which
   * keys they cover (every bound starts with the common prefix, so every key between two of them does too, in either
   * order), so a wrong answer can only cost evenness.
   */
  private static <T> List<Shard> withoutEmpty(List<Shard> pieces, String evidenced, Shard shard, Pages<T> store) throws IOException {
    int first = 1;
    while (first < pieces.size() && KeyOrder.compare(pieces.get(first).after(), evidenced) <= 0) first++;
    if (pieces.size() - first < SPECULATIVE) return pieces;
    Shard tail = pieces.get(pieces.size() - 1);
    String from = pieces.get(first).after();
    List<String> probe = keys(store, store.page(tail.prefix(), from, null, 1, false));
    List<Shard> kept = new ArrayList<>(pieces.subList(0, first));
    if (probe.isEmpty() || shard.beyond(probe.get(0))) { // all empty: the last piece before them takes their range
      Shard end = kept.remove(kept.size() - 1);
      kept.add(new Shard(tail.prefix(), end.after(), shard.upTo(), true));
      return kept;
    }
    int holder = first;
    while (holder < pieces.size() - 1 && pieces.get(holder).beyond(probe.get(0))) holder++;
    Shard at = pieces.get(holder);
    kept.add(new Shard(at.prefix(), from, at.upTo(), true)); // the empty pieces before the probe's key, and its own
    kept.addAll(pieces.subList(holder + 1, pieces.size()));
    return kept;
  }

  private static <T> List<String> keys(Pages<T> store, Page<T> page) {
    return page.entries().stream().map(store::key).toList();
  }

  /** Whether every server orders keys against this text alike: it has no character at or above U+D800. */
  private static boolean orderSafe(String text) {
    for (int i = 0; i < text.length(); i++) if (text.charAt(i) >= '\uD800') return false;
    return true;
  }

  private static String longer(String a, String b) {
    return a.length() >= b.length() ? a : b;
  }
}
