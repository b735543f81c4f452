package io.ferry.plan;

import io.ferry.config.S3Limits;
import io.ferry.store.ByteRange;
import java.util.SortedMap;

/**
 * The range arithmetic, as tiny pure functions. Parts are numbered from 1 (as S3 numbers multipart parts); every
 * part has the same size except the last, which holds the remainder. A zero-byte object has exactly one, empty part.
 */
public final class PartSizing {
  /** S3's most parts per multipart upload. */
  public static final int MAX_PARTS = S3Limits.MAX_PARTS;

  private PartSizing() {}

  /**
   * The part size for an object: the target, grown (to a multiple of 1 MiB) just enough that the object fits in
   * {@code maxParts} parts.
   */
  public static long partSize(long objectSize, long targetPartSize, int maxParts) {
    if (objectSize < 0) throw new IllegalArgumentException("objectSize is negative: " + objectSize);
    if (targetPartSize < 1) throw new IllegalArgumentException("targetPartSize must be positive: " + targetPartSize);
    if (maxParts < 1) throw new IllegalArgumentException("maxParts must be positive: " + maxParts);
    long needed = ceilDiv(objectSize, maxParts);
    if (needed <= targetPartSize) return targetPartSize;
    long mebibyte = 1L << 20;
    return ceilDiv(needed, mebibyte) * mebibyte;
  }

  /** How many parts of {@code partSize} hold {@code objectSize} bytes (1 for an empty object). */
  public static int partCount(long objectSize, long partSize) {
    if (objectSize < 0) throw new IllegalArgumentException("objectSize is negative: " + objectSize);
    if (partSize < 1) throw new IllegalArgumentException("partSize must be positive: " + partSize);
    long count = Math.max(1, ceilDiv(objectSize, partSize));
    if (count > Integer.MAX_VALUE) throw new IllegalArgumentException("too many parts: " + count);
    return (int) count;
  }

  /** The byte range of part {@code partNumber} (1-based). */
  public static ByteRange part(long objectSize, long partSize, int partNumber) {
    int count = partCount(objectSize, partSize);
    if (partNumber < 1 || partNumber > count) {
      throw new IllegalArgumentException("part " + partNumber + " is outside 1.." + count);
    }
    long offset = (partNumber - 1) * partSize;
    return new ByteRange(offset, Math.min(partSize, objectSize - offset));
  }

  /**
   * Why {@code parts} (by part number) do not make an object of {@code size} bytes in {@code partCount} parts exactly,
   * or null when they do: parts 1 to {@code partCount}, each starting where the one before ends, the first at 0 and
   * the last ending at {@code size}. Checked before every completion, whatever planned or resumed the parts.
   */
  public static String tilingProblem(long size, int partCount, SortedMap<Integer, ByteRange> parts) {
    if (parts.size() != partCount) return parts.size() + " parts for an object of " + partCount;
    long next = 0;
    int expected = 1;
    for (var e : parts.entrySet()) {
      if (e.getKey() != expected) return "part " + expected + " is missing";
      ByteRange r = e.getValue();
      if (r.offset() != next) return "part " + expected + " starts at byte " + r.offset() + ", not at " + next + " where part "
          + (expected - 1) + " ends";
      if (r.length() == 0 && size > 0) return "part " + expected + " is empty";
      next = r.offset() + r.length();
      expected++;
    }
    return next == size ? null : "the parts end at byte " + next + ", the object at " + size;
  }

  /** The part sizes {@code plan.part-size = auto} chooses among: powers of two from 8 MiB to 512 MiB. */
  public static final long AUTO_LEAST = 8L << 20;

  public static final long AUTO_MOST = 512L << 20;

  /**
   * A part at least this many times the bytes one stream receives while it waits for a first byte: the wait is then
   * at most a fortieth of the part's time, where a twentieth chose parts that lost to larger ones (tuning.md).
   */
  static final int FIRST_BYTE_SHARE = 40;

  /**
   * What {@code plan.part-size = auto} chooses: the largest power of two from {@link #AUTO_LEAST} to
   * {@link #AUTO_MOST} that still gives each of {@code streams} a part of the objects larger than it (so that the
   * split objects keep the cluster's streams busy), and never one smaller than {@link #FIRST_BYTE_SHARE} times what a
   * stream receives during a first byte's wait (a part mostly waiting would cost requests and time). Without a
   * measurement (NaN), that least size is {@code fallback}.
   *
   * @param bytesBySize the bytes of the objects to copy by size: {@code [k]} holds those of 2^k to 2^(k+1) - 1 bytes
   * @param streams the streams the cluster copies with at once
   * @param firstByteSeconds one stream's wait for a range's first byte, measured (NaN: not measured)
   * @param bytesPerSecond one stream's rate once bytes flow, measured (NaN: not measured)
   */
  public static long auto(long[] bytesBySize, long streams, double firstByteSeconds, double bytesPerSecond, long fallback) {
    if (bytesBySize.length != 64) throw new IllegalArgumentException("64 size classes, not " + bytesBySize.length);
    if (streams < 1) throw new IllegalArgumentException("streams must be positive: " + streams);
    double waited = firstByteSeconds * bytesPerSecond;
    long least = Double.isNaN(waited) || waited < 0 ? fallback : powerOfTwoAtLeast(Math.min(FIRST_BYTE_SHARE * waited, AUTO_MOST));
    least = Math.max(AUTO_LEAST, Math.min(AUTO_MOST, least));
    for (long size = AUTO_MOST; size > least; size >>= 1) {
      if (bytesAbove(bytesBySize, size) / size >= streams) return size;
    }
    return least;
  }

  /** The size class of an object of {@code size} bytes in {@link #auto}'s {@code bytesBySize} (0 and 1 byte: class 0). */
  public static int sizeClass(long size) {
    return size <= 1 ? 0 : 63 - Long.numberOfLeadingZeros(size);
  }

  /** The bytes of the classes above {@code size}'s (a power of two), with its own class: objects of {@code size} count. */
  public static long bytesAbove(long[] bytesBySize, long size) {
    long bytes = 0;
    for (int k = sizeClass(size); k < 64; k++) bytes += bytesBySize[k];
    return bytes;
  }

  private static long powerOfTwoAtLeast(double bytes) {
    long size = 1;
    while (size < bytes) size <<= 1;
    return size;
  }

  static long ceilDiv(long a, long b) {
    return a == 0 ? 0 : (a - 1) / b + 1;
  }
}
