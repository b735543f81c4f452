package io.ferry.copy;

import io.ferry.store.ByteRange;
import io.ferry.store.RangeReader;
import io.ferry.store.StoreObject;
import io.ferry.store.limits.Limits;
import io.ferry.store.limits.RateLimit;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;

/**
 * One stream's wait for a range's first byte and its rate once bytes flow, measured on the source by reading the start
 * of one object twice: a few bytes that open the connection (its handshake is no part of a range's wait), then up to
 * 8 MiB, measured. What {@code plan.part-size = auto} sizes parts by ({@code PartSizing.auto}).
 *
 * @param firstByteSeconds NaN when nothing was measured
 * @param bytesPerSecond NaN when nothing was measured, or the object is too small to tell
 * @param problem why nothing was measured; empty when something was
 */
public record SourceProbe(double firstByteSeconds, double bytesPerSecond, String problem) implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final SourceProbe NONE = none("no object of more than 1 MiB to read");

  public static SourceProbe none(String why) {
    return new SourceProbe(Double.NaN, Double.NaN, why);
  }

  /** The bytes the measured read takes at most: a fifth of a second at 40 MB/s. */
  static final long BYTES = 8L << 20;

  /** The bytes of the read that opens the connection. */
  static final long WARM = 64L << 10;

  /** The fewest bytes after the first that tell a rate. */
  static final long LEAST = 1L << 20;

  /** The longest the measured read goes on: a slow source is measured on what arrived by then. */
  static final long MOST_NANOS = 3_000_000_000L;

  public boolean measured() {
    return !Double.isNaN(firstByteSeconds) && !Double.isNaN(bytesPerSecond);
  }

  public static SourceProbe measure(RangeReader reader, StoreObject object) throws IOException {
    ByteRange range = new ByteRange(0, Math.min(object.size(), BYTES));
    if (range.length() < LEAST + 1) return NONE;
    once(reader, object, new ByteRange(0, WARM));
    return once(reader, object, range);
  }

  private static SourceProbe once(RangeReader reader, StoreObject object, ByteRange range) throws IOException {
    byte[] buffer = new byte[256 << 10];
    long start = System.nanoTime();
    try (InputStream in = reader.open(object, range)) {
      if (in.read() < 0) throw new IOException("no bytes in " + range + " of " + object.key());
      long first = System.nanoTime();
      long rest = 0;
      long end = first;
      RateLimit limit = Limits.bandwidth(); // the job's bandwidth holds for the probe as for the copy
      int most = limit.limited() ? (int) Math.min(buffer.length, Limits.LIMITED_READ) : buffer.length;
      limit.acquire(1);
      for (int n; end - first < MOST_NANOS && (n = in.read(buffer, 0, most)) >= 0; end = System.nanoTime()) {
        limit.acquire(n);
        rest += n;
      }
      boolean told = rest >= LEAST && end > first;
      return new SourceProbe((first - start) / 1e9, told ? rest / ((end - first) / 1e9) : Double.NaN, told ? ""
          : "too few bytes in " + (end - first) / 1_000_000 + " ms to tell a rate");
    }
  }
}
