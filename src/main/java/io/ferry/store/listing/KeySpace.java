package io.ferry.store.listing;

import io.ferry.store.KeyOrder;
import io.ferry.store.Shard;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Splits the keys under a prefix into at most about {@code target} shards for a parallel listing, where there are
 * enough keys to pay for them, from a few requests and no listing of the whole: a range is read for {@link #PROVEN}
 * pages; one that ends within them is a shard, and one that does not is split after them at its keys' common prefix
 * followed by each character of a fixed alphabet (and those seen there), level by level, until there are enough
 * ranges; adjacent small ones are joined again. A range's
 * common prefix is found from its pages and then widened by probes for the first key after everything that
 * starts with it, so keys such as {@code img_000001 .. img_999999} split at {@code img_0 .. img_9}, not at the
 * {@code img_00} their first page shares. Any split is correct (the ranges always cover the key space exactly once); the
 * alphabet only decides how even they are.
 *
 * <p>A folder (the prefix, or a key prefix ending in '/') is split at its subfolders first, from one delimiter
 * listing: a shard per subfolder, listed under it, and one for the folder's own objects (listed by delimiter), so that
 * a server that walks a folder's files to list it (S3Proxy, MinIO) lists each shard's folder alone. A folder with more
 * entries than a page, or none, is split by characters.
 *
 * <p>No bound holds a character at or above U+D800: servers differ in how they order keys with such characters (AWS
 * S3 by UTF-8 bytes, S3Proxy by UTF-16 units, which put U+E000–U+FFFF after the surrogates of U+10000 and up), and
 * against bounds below them both orders agree, so a shard's listing stops at its end on either kind of server.
 */
public final class KeySpace {
  /** The first keys under {@code prefix} after {@code after} ("" for none), in key order, at most {@code max}. */
  public interface Pages {
    List<String> first(String prefix, String after, int max) throws IOException;

    /** One level under {@code prefix} (a delimiter listing by '/'): its objects and its folders, at most {@code max}. */
    Level level(String prefix, int max) throws IOException;
  }

  /** A folder's direct objects and its subfolders (each ending in '/'); {@code truncated} when there were more. */
  public record Level(List<String> objects, List<String> folders, boolean truncated) {}

  /** A ListObjectsV2 page: a range with fewer keys than this is listed by one request anyway. */
  static final int PAGE = 1000;
  /** Levels of splitting at most: each is one round of requests, about a character of key each. */
  static final int LEVELS = 8;
  /**
   * Pages a range is read for before it is split: one that ends within them is a shard as it is (its listing costs no
   * more requests than a split would), one that does not has proven large enough to pay for shards. Adjacent ranges
   * that add up to no more are listed as one shard.
   */
  static final int PROVEN = 8;
  private static final String DIGITS = "0123456789";
  private static final String UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  private static final String LOWER = "abcdefghijklmnopqrstuvwxyz";

  /** What a range is known to hold. */
  private enum Keys {
    SOME, NONE, UNKNOWN;

    static Keys seen(boolean any) {
      return any ? SOME : NONE;
    }
  }

  /** How a range is listed: every key in it, or by delimiter only a folder's own objects. */
  private enum Depth { ALL, OWN_OBJECTS }

  /** Keys after {@code after} up to {@code upTo}, all starting with {@code common}; {@code count} of them, or -1. */
  private record Range(String after, String upTo, String common, Keys keys, Depth depth, long count) {
    Range(String after, String upTo, String common, Keys keys) {
      this(after, upTo, common, keys, Depth.ALL, -1);
    }

    /** This range, known to hold {@code count} keys. */
    Range counted(long count) {
      return new Range(after, upTo, common, Keys.seen(count > 0), depth, count);
    }

    /** Where its keys start, for the order of shards. */
    String start() {
      return KeyOrder.compare(after, common) > 0 ? after : common;
    }

    /** Whether {@code next} continues this range and both together are still one shard's listing. */
    boolean joins(Range next) {
      return depth == Depth.ALL && next.depth == Depth.ALL && count >= 0 && next.count >= 0 && !upTo.isEmpty()
          && upTo.equals(next.after) && count + next.count <= (long) PROVEN * PAGE;
    }

    Range join(Range next) {
      return new Range(after, next.upTo, KeyOrder.commonPrefix(common, next.common), Keys.seen(count + next.count > 0), Depth.ALL,
          count + next.count);
    }

    /** Every key under the common prefix: a folder, or the prefix the split started from. */
    boolean whole() {
      return after.isEmpty() && upTo.isEmpty();
    }
  }

  private KeySpace() {}

  /** Shards in key order; at least one. {@code threads} requests are sent at a time. */
  public static List<Shard> split(String prefix, int target, Pages pages, int threads) throws IOException {
    List<Range> done = new ArrayList<>();
    List<Range> work = new ArrayList<>(List.of(new Range("", "", prefix, Keys.SOME)));
    int batch = Math.max(1, threads);
    ExecutorService pool = Executors.newFixedThreadPool(batch, r -> {
      Thread t = new Thread(r, "ferry-shards");
      t.setDaemon(true);
      return t;
    });
    try {
      for (int level = 0; level < LEVELS && !work.isEmpty() && live(done, work) < target; level++) {
        List<Range> next = new ArrayList<>();
        int i = 0;
        // a batch at a time, so that a level stops splitting once there are enough ranges with keys
        while (i < work.size() && live(done, next) + live(List.of(), work.subList(i, work.size())) < target) {
          List<Range> chunk = work.subList(i, Math.min(work.size(), i + batch));
          List<Future<List<Range>>> explored = new ArrayList<>();
          for (Range range : chunk) explored.add(pool.submit(() -> explore(prefix, range, pages)));
          for (int j = 0; j < chunk.size(); j++) {
            List<Range> children = get(explored.get(j));
            if (children.size() == 1) {
              done.add(children.get(0)); // small: listed in no more requests than a split would take
            } else {
              for (Range child : children) (child.depth() == Depth.OWN_OBJECTS || child.count() >= 0 ? done : next).add(child); // known
            }
          }
          i += chunk.size();
        }
        next.addAll(work.subList(i, work.size()));
        work = next;
      }
    } finally {
      pool.shutdownNow();
    }
    done.addAll(work);
    done.sort(java.util.Comparator.comparing(Range::start, KeyOrder.COMPARATOR).thenComparing(Range::upTo, KeyOrder.COMPARATOR));
    List<Range> joined = new ArrayList<>();
    for (Range r : done) {
      if (!joined.isEmpty() && joined.get(joined.size() - 1).joins(r)) joined.set(joined.size() - 1, joined.get(joined.size() - 1).join(r));
      else joined.add(r);
    }
    return joined.stream().map(r -> new Shard(listedUnder(r), r.after(), r.upTo(), r.depth() == Depth.ALL)).toList();
  }

  /**
   * The prefix a range is listed under: its keys' common prefix, so that a server which lists a folder cheaper than
   * the bucket (S3Proxy walks files) does; shortened to what its end shares, whose key may start otherwise.
   */
  private static String listedUnder(Range r) {
    return r.upTo().isEmpty() || r.upTo().startsWith(r.common()) ? r.common() : KeyOrder.commonPrefix(r.common(), r.upTo());
  }

  /** Ranges known or likely to hold keys. */
  private static long live(List<Range> done, List<Range> work) {
    return done.stream().filter(r -> r.keys() != Keys.NONE).count() + work.stream().filter(r -> r.keys() == Keys.SOME).count();
  }

  /**
   * The children of a range: one range (itself, counted) when it is small (it ended within {@link #PROVEN} pages);
   * otherwise the keys read (a range of their own, counted) and the rest split after them.
   */
  static List<Range> explore(String prefix, Range range, Pages pages) throws IOException {
    if (range.whole() && (range.common().equals(prefix) || range.common().endsWith("/"))) {
      Level level = pages.level(range.common(), PAGE);
      if (!level.truncated() && !level.folders().isEmpty()) {
        List<Range> children = new ArrayList<>();
        children.add(new Range("", "", range.common(), Keys.seen(!level.objects().isEmpty()), Depth.OWN_OBJECTS, level.objects().size()));
        for (String folder : level.folders()) children.add(new Range("", "", folder, Keys.SOME));
        return children;
      }
      if (!level.truncated()) return List.of(new Range("", "", range.common(), Keys.UNKNOWN).counted(level.objects().size()));
    }
    String under = listedUnder(range);
    List<String> seen = new ArrayList<>();
    String last = range.after();
    for (int read = 0; read < PROVEN; read++) {
      List<String> page = pages.first(under, last, PAGE);
      int inRange = 0;
      while (inRange < page.size() && !beyond(page.get(inRange), range.upTo())) inRange++;
      seen.addAll(page.subList(0, inRange));
      if (page.size() < PAGE || inRange < page.size() || page.get(page.size() - 1).equals(range.upTo())) {
        return List.of(range.counted(seen.size()));
      }
      last = page.get(page.size() - 1);
    }
    // what was read is a range of its own, bounded by its last key; where that key is not order safe, by its safe start
    // when that is past the range's start, or not at all
    List<Range> children = new ArrayList<>();
    String safe = safeStart(last);
    if (safe.equals(last)) {
      children.add(new Range(range.after(), last, longer(KeyOrder.commonPrefix(seen.get(0), last), range.common()), Keys.SOME)
          .counted(seen.size()));
    } else if (!safe.isEmpty() && KeyOrder.compare(safe, range.after()) > 0) {
      children.add(new Range(range.after(), safe, range.common(), Keys.UNKNOWN));
    } else {
      safe = range.after();
    }
    last = safe;
    String common = longer(KeyOrder.commonPrefix(seen.get(0), seen.get(seen.size() - 1)), range.common());
    while (common.length() > range.common().length()) {
      List<String> probe = pages.first(under, common + KeyOrder.LAST, 1);
      if (probe.isEmpty() || !range.upTo().isEmpty() && KeyOrder.compare(probe.get(0), range.upTo()) >= 0) break;
      if (probe.get(0).startsWith(common)) break; // a server ordering by UTF-16 units puts U+E000-U+FFFF after LAST
      seen.add(probe.get(0));
      common = longer(KeyOrder.commonPrefix(common, probe.get(0)), range.common());
    }
    // split at the characters seen after the common prefix, and the rest of their classes (digits, letters)
    if (!orderSafe(common)) {
      if (children.isEmpty()) return List.of(range); // nothing to split at: listed as it is
      children.add(new Range(last, range.upTo(), range.common(), Keys.UNKNOWN));
      return children;
    }
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
    String after = last;
    Keys afterKeys = Keys.UNKNOWN;
    for (String bound : bounds) {
      if (!after.isEmpty() && KeyOrder.compare(bound, after) <= 0 || !range.upTo().isEmpty() && KeyOrder.compare(bound,
          range.upTo()) >= 0) {
        continue;
      }
      children.add(new Range(after, bound, common, afterKeys));
      after = bound;
      afterKeys = seenNext.contains(bound.substring(common.length())) ? Keys.SOME : Keys.UNKNOWN;
    }
    children.add(new Range(after, range.upTo(), common, afterKeys));
    return children;
  }

  /** The text before its first character at or above U+D800. */
  private static String safeStart(String text) {
    for (int i = 0; i < text.length(); i++) if (text.charAt(i) >= '\uD800') return text.substring(0, i);
    return text;
  }

  /** Whether every server orders keys against this text alike: it has no character at or above U+D800. */
  private static boolean orderSafe(String text) {
    for (int i = 0; i < text.length(); i++) if (text.charAt(i) >= '\uD800') return false;
    return true;
  }

  private static boolean beyond(String key, String upTo) {
    return !upTo.isEmpty() && KeyOrder.compare(key, upTo) > 0;
  }

  private static String longer(String a, String b) {
    return a.length() >= b.length() ? a : b;
  }

  private static List<Range> get(Future<List<Range>> future) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while splitting the key space");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) throw io;
      if (e.getCause() instanceof RuntimeException r) throw r;
      throw new IllegalStateException(e.getCause());
    }
  }
}
