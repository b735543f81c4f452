package io.ferry.plan;

import io.ferry.store.ByteRange;

/**
 * The range arithmetic, as tiny pure functions. Parts are numbered from 1 (as S3 numbers multipart parts); every
 * part has the same size except the last, which holds the remainder. A zero-byte object has exactly one, empty part.
 */
public final class PartSizing {
  /** S3's most parts per multipart upload. */
  public static final int MAX_PARTS = io.ferry.config.S3Limits.MAX_PARTS;

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
  public static String tilingProblem(long size, int partCount, java.util.SortedMap<Integer, ByteRange> parts) {
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

  static long ceilDiv(long a, long b) {
    return a == 0 ? 0 : (a - 1) / b + 1;
  }
}
