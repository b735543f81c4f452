package io.ferry.store.limits;

import java.io.InterruptedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * This JVM's share of the job's request rate to each key prefix of a bucket. S3 scales each partitioned prefix to a
 * rate of its own (3,500 writes and 5,500 reads a second) and answers above it 503 SlowDown; one executor halving its
 * own requests leaves the others to go on overrunning it. So every executor reports, per prefix, the requests it sent
 * and the answers asking to slow down; the driver's {@link PrefixControl} sets one rate per prefix for the job and
 * gives each executor its share here. A prefix no answer has slowed has no limit.
 */
public final class PrefixRates {
  /** The most prefixes kept apart; requests to any further ones share one entry. */
  static final int MOST = 4096;
  /** The entry of the prefixes past {@link #MOST}. */
  static final String OTHERS = "(others)";

  private static final Map<String, Entry> PREFIXES = new ConcurrentHashMap<>();

  private PrefixRates() {}

  private static final class Entry {
    final RateLimit limit = new RateLimit(0);
    final LongAdder sent = new LongAdder();
    final LongAdder throttled = new LongAdder();
  }

  /**
   * The prefix a request's path names: its endpoint, bucket and the key's first folder ("host/bucket/photos/"), or the
   * bucket alone for a key without one and for requests to the bucket (a listing). Two endpoints' buckets of one name
   * are two prefixes.
   *
   * @param bucketInPath whether the path starts with the bucket (path-style addressing); else the host names it
   */
  public static String of(String host, String encodedPath, boolean bucketInPath) {
    String path = encodedPath.startsWith("/") ? encodedPath.substring(1) : encodedPath;
    int bucketEnd = bucketInPath ? path.indexOf('/') : -1;
    String bucket = bucketInPath ? host + "/" + (bucketEnd < 0 ? path : path.substring(0, bucketEnd)) : host;
    String key = bucketInPath ? (bucketEnd < 0 ? "" : path.substring(bucketEnd + 1)) : path;
    int folder = key.indexOf('/');
    if (folder < 0) folder = key.indexOf("%2F"); // a key's slashes sent encoded
    return folder < 0 ? bucket + "/" : bucket + "/" + key.substring(0, folder) + "/";
  }

  private static Entry entry(String prefix) {
    Entry e = PREFIXES.get(prefix);
    if (e != null) return e;
    return PREFIXES.computeIfAbsent(PREFIXES.size() >= MOST ? OTHERS : prefix, p -> new Entry());
  }

  /** Waits until a request to {@code prefix} fits under this JVM's share of its rate (at once where it has none). */
  public static void acquire(String prefix) throws InterruptedIOException {
    entry(prefix).limit.acquire(1);
  }

  /** A request to {@code prefix} was answered; {@code throttled}: by asking to slow down (503, 429). */
  public static void answered(String prefix, boolean throttled) {
    Entry e = entry(prefix);
    e.sent.increment();
    if (throttled) e.throttled.increment();
  }

  /** Per prefix sent to since the last report: requests, and of them the answers asking to slow down. */
  public static Map<String, long[]> report() {
    Map<String, long[]> out = new HashMap<>();
    PREFIXES.forEach((prefix, e) -> {
      long sent = e.sent.sumThenReset();
      long throttled = e.throttled.sumThenReset();
      if (sent > 0 || throttled > 0) out.put(prefix, new long[] {sent, throttled}); // counted apart: a report may split them
    });
    return out;
  }

  /**
   * This JVM's share of each prefix's rate, in requests per second; a prefix not named has none. Only prefixes this JVM
   * keeps apart take one (the others' entry is named as such).
   */
  public static void share(Map<String, Double> perSecond) {
    PREFIXES.forEach((prefix, e) -> e.limit.set(perSecond.getOrDefault(prefix, 0.0)));
  }

  /** Forgets every prefix: the map lives as long as the JVM, and a test that fills it must leave it empty. */
  static void forgetAll() {
    PREFIXES.clear();
  }

  /** The share of {@code prefix} now (0: none). */
  public static double shareOf(String prefix) {
    Entry e = PREFIXES.get(prefix);
    return e == null ? 0 : e.limit.perSecond();
  }
}
