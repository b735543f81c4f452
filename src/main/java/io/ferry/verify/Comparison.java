package io.ferry.verify;

import io.ferry.store.ByteRange;
import io.ferry.store.RangeReader;
import io.ferry.store.StoreObject;
import io.ferry.store.retry.Failures;
import io.ferry.store.retry.Retrier;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.HexFormat;
import java.util.Objects;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * What {@code verify} compares: an object of the source and what the destination holds under its relative key.
 * Objects whose listed ETags are both the MD5 of their bytes compare by ETag alone; any other pair is read on both
 * sides, range by range (the ranges of a large object spread over the cluster), and compared by CRC32C. Free of Spark.
 */
public final class Comparison {
  /** How a pair (or one range of it) compares. */
  public enum Status { MATCH, MISSING, EXTRA, SIZE_DIFFERS, CONTENT_DIFFERS, UNREADABLE }

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

  /** A range's (or a whole pair's) verdict; merged per object by {@link #merge}. */
  public record Result(String key, StoreObject source, StoreObject destination, Status status, String method, String detail,
      int parts, long bytesRead) implements Serializable {
    public Result {
      Objects.requireNonNull(key, "key is null");
      Objects.requireNonNull(status, "status is null");
      Objects.requireNonNull(method, "method is null");
      Objects.requireNonNull(detail, "detail is null");
    }

    /**
     * The object's verdict from its ranges': the worst status (in the order of {@link Status}), and among the ranges
     * with that status the least detail and method, so that the merge is associative and commutative.
     */
    public Result merge(Result other) {
      Status worst = status.ordinal() >= other.status.ordinal() ? status : other.status;
      String detail = Stream.of(this, other).filter(r -> r.status == worst && !r.detail.isEmpty())
          .map(Result::detail).min(String::compareTo).orElse("");
      String method = Stream.of(this, other).filter(r -> r.status == worst).map(Result::method)
          .min(String::compareTo).orElseThrow();
      return new Result(key, source != null ? source : other.source, destination != null ? destination : other.destination, worst,
          method, detail, parts + other.parts, bytesRead + other.bytesRead);
    }
  }

  private final RangeReader source;
  private final RangeReader destination;
  private final Retrier retrier;

  public Comparison(RangeReader source, RangeReader destination, Retrier retrier) {
    this.source = source;
    this.destination = destination;
    this.retrier = retrier;
  }

  /** The verdict a pair gets without reading (one side missing, sizes, MD5 ETags), or null when it must be read. */
  public static Result withoutReading(StoreObject source, StoreObject destination) {
    if (destination == null) return new Result(source.relativeKey(), source, null, Status.MISSING, "listing", "not at the destination", 1,
        0);
    if (source == null) return new Result(destination.relativeKey(), null, destination, Status.EXTRA, "listing", "only at the destination",
        1, 0);
    if (source.size() != destination.size()) {
      return new Result(source.relativeKey(), source, destination, Status.SIZE_DIFFERS, "listing",
          "source " + source.size() + " bytes, destination " + destination.size(), 1, 0);
    }
    if (md5(source.etag()) && source.etag().equalsIgnoreCase(destination.etag())) {
      return new Result(source.relativeKey(), source, destination, Status.MATCH, "etag-md5", "", 1, 0);
    }
    if (source.isArchived()) { // its bytes cannot be read (a GET is refused, and billed): the sizes are all there is
      return new Result(source.relativeKey(), source, destination, Status.MATCH, "size-archived", "the source is archived ("
          + source.archiveClass() + "): compared by size, not read", 1, 0);
    }
    return null;
  }

  private static boolean md5(String etag) {
    return etag.matches("[0-9a-fA-F]{32}");
  }

  /** Reads the range on both sides and compares their CRC32C. */
  public Result compare(Check check) {
    try {
      String a = retrier.call(() -> crc32c(source, check.source(), check.range()));
      String b = retrier.call(() -> crc32c(destination, check.destination(), check.range()));
      boolean same = a.equals(b);
      String where = check.parts() == 1 ? "" : "part " + check.part() + " of " + check.parts() + " (" + check.range().httpRange() + "): ";
      return new Result(check.key(), check.source(), check.destination(), same ? Status.MATCH : Status.CONTENT_DIFFERS, "read-crc32c",
          same ? "" : where + "source crc32c " + a + ", destination " + b, 1, 2 * check.range().length());
    } catch (IOException | RuntimeException e) {
      return new Result(check.key(), check.source(), check.destination(), Status.UNREADABLE, "read-crc32c",
          Failures.describe(e), 1, 0);
    }
  }

  private static String crc32c(RangeReader reader, StoreObject object, ByteRange range) throws IOException {
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
    return HexFormat.of().toHexDigits((int) crc.getValue());
  }
}
