package io.ferry.verify;

import io.ferry.store.ByteRange;
import io.ferry.store.RangeReader;
import io.ferry.store.StoreObject;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.retry.Failures;
import io.ferry.store.retry.Retrier;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * What {@code verify} compares: an object of the source and what the destination holds under its relative key.
 * Objects whose listed ETags are both the MD5 of their bytes compare by ETag alone; any other pair is read on both
 * sides, range by range (the ranges of a large object spread over the cluster), and compared by CRC32C, the ranges'
 * values combined into each side's CRC32C of the whole object. A pair of two buckets' objects larger than a range is
 * first compared by the checksums both stores keep, where they keep comparable ones ({@link #byStoredChecksums}).
 * Free of Spark.
 */
public final class Comparison {
  /**
   * How a pair (or one range of it) compares. {@code UNPROVEN}: the sizes agree and nothing more can be known without
   * reading, and the bytes cannot be read (an archived source).
   */
  public enum Status { MATCH, MISSING, EXTRA, SIZE_DIFFERS, CONTENT_DIFFERS, UNREADABLE, UNPROVEN }

  /** One piece of work: a pair, and the range of it to read ({@code part} of {@code parts}; the whole when 1 of 1). */
  public record Check(StoreObject source, StoreObject destination, int part, int parts, ByteRange range) implements Serializable {
    public Check {
      if (source == null && destination == null) throw new IllegalArgumentException("a pair needs one side");
    }

    /** The relative key both sides share. */
    public String key() {
      return (source != null ? source : destination).relativeKey();
    }
  }

  /**
   * A pair's verdict.
   *
   * @param sourceChecksum the source's checksum as compared ({@link Checksum#text}: "md5:..." from an ETag, "crc32c:..." from
   *     reading), "" where none was had
   * @param destinationChecksum the same of the destination
   * @param parts the ranges read (1 for a pair settled from the listings)
   */
  public record Result(String key, StoreObject source, StoreObject destination, Status status, String method, String detail,
      String sourceChecksum, String destinationChecksum, int parts, long bytesRead) implements Serializable {
    public Result {
      Objects.requireNonNull(key, "key is null");
      Objects.requireNonNull(status, "status is null");
      Objects.requireNonNull(method, "method is null");
      Objects.requireNonNull(detail, "detail is null");
      Objects.requireNonNull(sourceChecksum, "sourceChecksum is null");
      Objects.requireNonNull(destinationChecksum, "destinationChecksum is null");
    }

    /** Proven equal by a checksum of each side: what a completion manifest counts as done. */
    public boolean proven() {
      return status == Status.MATCH && !sourceChecksum.isEmpty() && sourceChecksum.equals(destinationChecksum);
    }
  }

  /**
   * One range read on both sides: its verdict, and each side's CRC32C of it (-1 where it could not be read), for
   * {@link #whole}.
   */
  public record Range(Check check, Status status, String detail, long sourceCrc, long destinationCrc, long bytesRead)
      implements Serializable {}

  private final RangeReader source;
  private final RangeReader destination;
  private final Retrier retrier;

  public Comparison(RangeReader source, RangeReader destination, Retrier retrier) {
    this.source = source;
    this.destination = destination;
    this.retrier = retrier;
  }

  /** The verdict a pair gets without reading (one side missing, sizes, MD5 ETags, an archived source), or null when it must be read. */
  public static Result withoutReading(StoreObject source, StoreObject destination) {
    if (destination == null) return listed(source, null, Status.MISSING, "listing", "not at the destination");
    if (source == null) return listed(null, destination, Status.EXTRA, "listing", "only at the destination");
    if (source.size() != destination.size()) {
      return listed(source, destination, Status.SIZE_DIFFERS, "listing", "source " + source.size() + " bytes, destination "
          + destination.size());
    }
    if (md5(source.etag()) && source.etag().equalsIgnoreCase(destination.etag())) {
      String md5 = new Checksum(Checksum.Algorithm.MD5, source.etag().toLowerCase(Locale.ROOT), false).text();
      return new Result(source.relativeKey(), source, destination, Status.MATCH, "etag-md5", "", md5, md5, 1, 0);
    }
    if (source.isArchived()) { // its bytes cannot be read (a GET is refused, and billed): the sizes are all there is
      return listed(source, destination, Status.UNPROVEN, "size-archived", "the source is archived (" + source.archiveClass()
          + "): its size matches, its bytes were not read");
    }
    return null;
  }

  /**
   * Whether a store's answer holds a checksum it keeps of the whole object's bytes: a flexible checksum (which the store
   * computes or checks at upload), not a composite of parts, and not an MD5 read from an ETag (the listings compare
   * those, and an ETag some store does not derive from the bytes would make two copies of one object differ).
   */
  public static boolean kept(Checksum checksum) {
    return checksum != null && checksum.algorithm() != Checksum.Algorithm.MD5 && !checksum.composite();
  }

  /**
   * The verdict a pair gets from the checksums both stores keep of the whole objects (their HEADs), or null when they
   * cannot settle it: either keeps none ({@link #kept}), or they differ in algorithm.
   */
  public static Result byStoredChecksums(StoreObject source, Checksum sourceChecksum, StoreObject destination,
      Checksum destinationChecksum) {
    if (!kept(sourceChecksum) || !kept(destinationChecksum) || sourceChecksum.algorithm() != destinationChecksum.algorithm()) {
      return null;
    }
    boolean same = sourceChecksum.value().equals(destinationChecksum.value());
    String label = sourceChecksum.algorithm().label();
    return new Result(source.relativeKey(), source, destination, same ? Status.MATCH : Status.CONTENT_DIFFERS, "stored-" + label,
        same ? "" : "stored " + label + ": source " + sourceChecksum.value() + ", destination " + destinationChecksum.value(),
        sourceChecksum.text(), destinationChecksum.text(), 1, 0);
  }

  private static Result listed(StoreObject source, StoreObject destination, Status status, String method, String detail) {
    String key = (source != null ? source : destination).relativeKey();
    return new Result(key, source, destination, status, method, detail, "", "", 1, 0);
  }

  private static boolean md5(String etag) {
    return etag.matches("[0-9a-fA-F]{32}");
  }

  /** Reads the range on both sides and compares their CRC32C. */
  public Range compare(Check check) {
    try {
      long a = retrier.call(() -> crc32c(source, check.source(), check.range()));
      long b = retrier.call(() -> crc32c(destination, check.destination(), check.range()));
      String where = check.parts() == 1 ? "" : "part " + check.part() + " of " + check.parts() + " (" + check.range().httpRange() + "): ";
      return new Range(check, a == b ? Status.MATCH : Status.CONTENT_DIFFERS, a == b ? "" : where + "source crc32c " + hex(a)
          + ", destination " + hex(b), a, b, 2 * check.range().length());
    } catch (IOException | RuntimeException e) {
      return new Range(check, Status.UNREADABLE, Failures.describe(e), -1, -1, 0);
    }
  }

  /**
   * A pair's verdict from all its ranges, in any order: the worst status (in the order of {@link Status}) with the
   * least detail among the ranges that have it, and, where every range was read, each side's CRC32C of the whole
   * object combined from its ranges'.
   */
  public static Result whole(List<Range> ranges) {
    if (ranges.isEmpty()) throw new IllegalArgumentException("a pair has at least one range");
    List<Range> ordered = ranges.stream().sorted(Comparator.comparingInt((Range r) -> r.check().part())).toList();
    Check first = ordered.get(0).check();
    for (int i = 0; i < ordered.size(); i++) { // each of the ranges once, or the whole the values combine into is not the object's
      if (ordered.get(i).check().part() != i + 1 || ordered.get(i).check().parts() != ordered.size()) {
        throw new IllegalArgumentException(first.key() + ": ranges " + ordered.stream().map(r -> r.check().part() + "/" + r.check().parts())
            .toList() + " are not parts 1 to " + first.parts() + " once each");
      }
    }
    Status worst = ordered.stream().map(Range::status).max(Comparator.naturalOrder()).orElseThrow();
    String detail = ordered.stream().filter(r -> r.status() == worst && !r.detail().isEmpty()).map(Range::detail)
        .min(String::compareTo).orElse("");
    boolean read = worst != Status.UNREADABLE;
    long source = 0;
    long destination = 0;
    for (Range r : ordered) {
      source = Checksum.combine(Checksum.Algorithm.CRC32C, source, r.sourceCrc(), r.check().range().length());
      destination = Checksum.combine(Checksum.Algorithm.CRC32C, destination, r.destinationCrc(), r.check().range().length());
    }
    return new Result(first.key(), first.source(), first.destination(), worst, "read-crc32c", detail, read ? crc32c(source) : "",
        read ? crc32c(destination) : "", ordered.size(), ordered.stream().mapToLong(Range::bytesRead).sum());
  }

  private static String crc32c(long crc) {
    return new Checksum(Checksum.Algorithm.CRC32C, Checksum.encode(crc, 4), false).text();
  }

  private static String hex(long crc) {
    return HexFormat.of().toHexDigits((int) crc);
  }

  private static long crc32c(RangeReader reader, StoreObject object, ByteRange range) throws IOException {
    CRC32C crc = new CRC32C();
    if (range.length() > 0) {
      byte[] buffer = new byte[1 << 20];
      InputStream in = reader.open(object, range);
      boolean done = false;
      try {
        long left = range.length();
        for (int n; left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) > 0; left -= n) crc.update(buffer, 0, n);
        if (left > 0) throw new IOException("the stream ended " + left + " bytes early");
        done = true;
      } finally {
        if (done) in.close(); else reader.discard(in);
      }
    }
    return crc.getValue();
  }
}
