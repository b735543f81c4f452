package io.ferry.copy;

import io.ferry.store.ByteRange;
import io.ferry.store.Upload;
import io.ferry.store.checksums.Checksum;
import java.io.IOException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The MD5 of an object copied in parts into a destination that can read its staged bytes back, computed as its parts
 * land rather than by reading the whole file back after the last one: per upload, a digest of the contiguous prefix
 * landed so far. Whichever thread lands the part at the prefix's end reads it (and the landed parts that follow it)
 * back from the destination, where the bytes were just written, and checks each part's CRC32C against the one its
 * stream computed, so the digest is of the bytes on disk. The landing that carries the prefix to the object's end
 * gets the object's {@link #text} for its range's result; the commit takes it only where the CRC32C it holds is the
 * one the committed parts combine to, and reads the object back otherwise.
 *
 * <p>Held per JVM (an executor's parts of an object meet here); an object whose parts land on several executors, or
 * were resumed from a ledger, never completes a prefix here and is read back at its commit as before. Bounded: the
 * least recently landed prefixes are forgotten. Free of Spark.
 */
public final class InOrderDigests {
  /** Reads bytes an upload holds into digests; false where the destination cannot. */
  @FunctionalInterface
  public interface Reader {
    boolean read(Upload upload, ByteRange range, Checksum.Digest... digests) throws IOException;
  }

  /** One object's prefix: its digest, where it ends, and the landed parts beyond it. */
  private static final class Prefix {
    final Checksum.Digest md5 = Checksum.digest(Checksum.Algorithm.MD5);
    final TreeMap<Long, long[]> landed = new TreeMap<>(); // offset -> {length, crc32c}
    final Map<Long, Long> consumed = new java.util.HashMap<>(); // offset -> crc32c of a part already in the digest
    long end;
    long crc; // CRC32C of the prefix, combined from the parts' read back
    boolean hashing;
    boolean broken;
  }

  private final int capacity;
  private final LinkedHashMap<String, Prefix> prefixes = new LinkedHashMap<>(16, 0.75f, true);

  /** @param capacity the objects whose prefixes are kept at once */
  public InOrderDigests(int capacity) {
    this.capacity = capacity;
  }

  /**
   * A part of {@code upload}'s object landed: bytes {@code range}, whose CRC32C (8 hex digits) its stream computed.
   * Returns the object's {@link #text} when this landing completed its prefix, else "".
   */
  public String landed(Reader reader, Upload upload, ByteRange range, String crc32c) {
    long size = upload.object().size();
    long crc = Integer.toUnsignedLong(HexFormat.fromHexDigits(crc32c));
    Prefix p;
    synchronized (prefixes) {
      p = prefixes.computeIfAbsent(upload.id(), k -> new Prefix());
      while (prefixes.size() > capacity) prefixes.remove(prefixes.keySet().iterator().next());
    }
    synchronized (p) {
      if (p.broken) return "";
      Long before = p.consumed.get(range.offset());
      if (before != null || range.offset() < p.end) {
        // landed again after the prefix passed it: the same bytes, or the digest no longer says what the file holds
        if (before == null || before != crc) p.broken = true;
        return "";
      }
      p.landed.put(range.offset(), new long[] {range.length(), crc});
      if (p.hashing) return ""; // the thread at the prefix's end takes this part too
      p.hashing = true;
    }
    try {
      while (true) {
        long offset;
        long[] part;
        synchronized (p) {
          Map.Entry<Long, long[]> next = p.landed.firstEntry();
          while (next != null && next.getKey() < p.end) { // landed again while the prefix passed it
            Long before = p.consumed.get(next.getKey());
            if (before == null || before != next.getValue()[1]) p.broken = true;
            p.landed.pollFirstEntry();
            next = p.landed.firstEntry();
          }
          if (next == null || next.getKey() != p.end || p.broken) {
            p.hashing = false;
            if (p.broken || p.end != size) return "";
            forget(upload, p);
            return text(p.md5.value(), p.crc);
          }
          p.landed.pollFirstEntry();
          offset = next.getKey();
          part = next.getValue();
        }
        Checksum.Digest back = Checksum.digest(Checksum.Algorithm.CRC32C);
        boolean read = reader.read(upload, new ByteRange(offset, part[0]), p.md5, back);
        synchronized (p) {
          if (!read || back.crc() != part[1]) {
            p.broken = true; // not readable, or the file holds other bytes than the stream wrote
            continue;
          }
          p.consumed.put(offset, part[1]);
          p.crc = Checksum.combine(Checksum.Algorithm.CRC32C, p.crc, part[1], part[0]);
          p.end = offset + part[0];
        }
      }
    } catch (IOException | RuntimeException e) {
      synchronized (p) {
        p.broken = true;
        p.hashing = false;
      }
      return "";
    }
  }

  private void forget(Upload upload, Prefix p) {
    synchronized (prefixes) {
      prefixes.remove(upload.id(), p);
    }
  }

  /** "md5:HEX crc32c:HEX": the object's MD5 and the CRC32C of the bytes it was computed from. */
  public static String text(String md5, long crc32c) {
    return "md5:" + md5 + " crc32c:" + HexFormat.of().toHexDigits((int) crc32c);
  }

  /**
   * The MD5 (hex) in {@code text} where its CRC32C is {@code crc32c}, the committed parts' combined: else null, and the
   * object is read back.
   */
  public static String md5(String text, long crc32c) {
    if (text == null || !text.startsWith("md5:")) return null;
    int space = text.indexOf(" crc32c:");
    if (space < 0) return null;
    String crc = text.substring(space + " crc32c:".length());
    return crc.equals(HexFormat.of().toHexDigits((int) crc32c)) ? text.substring("md5:".length(), space) : null;
  }
}
