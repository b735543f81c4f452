package io.ferry.store.limits;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * This JVM's counts of what its stores did (requests by kind, errors, throttling answers, retries, ranges, bytes),
 * for a metrics source to publish; process-wide like the metrics registries that read them, and free of any metrics
 * library so the store layer stays plain Java.
 */
public final class Meters {
  /** A request to an S3-compatible endpoint, by what it asks for. */
  public enum Request {
    LIST, HEAD, GET, PUT, UPLOAD_PART, UPLOAD_PART_COPY, COPY, CREATE_UPLOAD, COMPLETE, ABORT, LIST_PARTS, DELETE, OTHER;

    /** The kind of a request from its method, its query's parameter names and whether it names a copy source. */
    public static Request of(String method, Map<String, ?> query, boolean copySource) {
      boolean upload = query.containsKey("uploadId");
      return switch (method.toUpperCase(Locale.ROOT)) {
        case "HEAD" -> HEAD;
        case "GET" -> upload ? LIST_PARTS
            : query.containsKey("list-type") || query.containsKey("uploads") || query.containsKey("delimiter")
                || query.containsKey("prefix") || query.containsKey("continuation-token") ? LIST : GET;
        case "PUT" -> upload && query.containsKey("partNumber") ? (copySource ? UPLOAD_PART_COPY : UPLOAD_PART) : copySource ? COPY : PUT;
        case "POST" -> query.containsKey("uploads") ? CREATE_UPLOAD : upload ? COMPLETE : query.containsKey("delete") ? DELETE : OTHER;
        case "DELETE" -> upload ? ABORT : DELETE;
        default -> OTHER;
      };
    }

    /** The metric's name: {@code requests.upload-part}. */
    public String metric() {
      return "requests." + name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  private static final LongAdder[] REQUESTS = new LongAdder[Request.values().length];
  private static final LongAdder ERRORS = new LongAdder();
  private static final LongAdder THROTTLED = new LongAdder();
  private static final LongAdder RETRIES = new LongAdder();
  private static final LongAdder RANGES = new LongAdder();
  private static final LongAdder FAILED_RANGES = new LongAdder();
  private static final LongAdder BYTES = new LongAdder();
  private static volatile LongConsumer rangeMillis = ms -> {};

  static {
    for (int i = 0; i < REQUESTS.length; i++) REQUESTS[i] = new LongAdder();
  }

  private Meters() {}

  /** A request answered ({@code status}) or failed without an answer ({@code status} 0). */
  public static void request(Request kind, int status) {
    REQUESTS[kind.ordinal()].increment();
    if (status == 0 || status >= 400) ERRORS.increment();
    if (status == 503 || status == 429) THROTTLED.increment();
  }

  public static void retried() {
    RETRIES.increment();
  }

  /** A range transfer finished: its bytes, its wall time and whether it succeeded in the end (its retries: {@link #retried}). */
  public static void range(long bytes, long millis, boolean ok) {
    RANGES.increment();
    BYTES.add(bytes);
    if (!ok) FAILED_RANGES.increment();
    rangeMillis.accept(millis);
  }

  /** Where range times go as they happen (a histogram of the metrics source); one receiver per JVM. */
  public static void onRangeMillis(LongConsumer receiver) {
    rangeMillis = receiver;
  }

  public static long requests(Request kind) {
    return REQUESTS[kind.ordinal()].sum();
  }

  public static long errors() {
    return ERRORS.sum();
  }

  public static long throttled() {
    return THROTTLED.sum();
  }

  public static long retries() {
    return RETRIES.sum();
  }

  public static long ranges() {
    return RANGES.sum();
  }

  public static long failedRanges() {
    return FAILED_RANGES.sum();
  }

  public static long bytes() {
    return BYTES.sum();
  }
}
