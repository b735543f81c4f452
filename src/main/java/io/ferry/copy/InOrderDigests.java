package io.ferry.copy;

import io.ferry.store.ByteRange;
import io.ferry.store.Upload;
import io.ferry.store.checksums.Checksum;
import java.io.IOException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The MD5 of an object copied in parts into a destination that can read its staged bytes back, computed as its parts
 * land rather than over the whole file after the last one (the commit reads the file back only for its CRC32C, several
 * times cheaper): per upload, a digest of the contiguous prefix landed so far. Whichever thread lands the part at the
 * prefix's end reads it (and the landed parts that follow it) back from the destination, where the bytes were just
 * written, and checks each part's CRC32C against the one its stream computed, so the digest is of the bytes on disk.
 * The landing that carries the prefix to the object's end gets the object's {@link #text}: its MD5, the CRC32C of the
 * parts it was taken from and the staged file's state then. The commit takes the MD5 only where the committed parts
 * combine to that CRC32C, the file is in that state still (no write since), and the file's CRC32C read back then is
 * that CRC32C: an attempt this table never hears of (on another executor, or one that failed after writing) may have
 * written a part after it was read back and before the state was taken. Otherwise the commit reads the object's MD5
 * back.
 *
 * <p>Held per JVM (an executor's parts of an object meet here); an object whose parts land on several executors, or
 * were resumed from a ledger, never completes a prefix here and is read back at its commit as before. Bounded: the
 * least recently landed prefixes are forgotten beyond a number of objects or of parts waiting. Free of Spark.
 */
public final class InOrderDigests {
  /** Reads what the destination holds of an upload before its completion. */
  public interface Reader {
    /** Feeds bytes {@code range} to the digests; false where they cannot be read back. */
    boolean read(Upload upload, ByteRange range, Checksum.Digest... digests) throws IOException;

    /** The staged bytes' state (size, time of the last write, file), which any write changes; null where none is kept. */
    String staged(Upload upload) throws IOException;
  }

  /** One object's prefix: its digest, where it ends, and the landed parts beyond it. */
  private static final class Prefix {
    final Checksum.Digest md5 = Checksum.digest(Checksum.Algorithm.MD5);
    final TreeMap<Long, long[]> landed = new TreeMap<>(); // offset -> {length, crc32c}
    final Map<Long, Long> consumed = new HashMap<>(); // offset -> crc32c of a part already in the digest
    final AtomicInteger parts = new AtomicInteger(); // landed and consumed, read without the prefix's lock
    long end;
    long crc; // CRC32C of the prefix, combined from the parts' read back
    boolean hashing;
    volatile boolean broken;

    void breakOff(AtomicLong tracked) {
      broken = true;
      tracked.addAndGet(-parts.getAndSet(0));
      landed.clear();
      consumed.clear();
    }
  }

  private final int objects;
  private final long parts;
  private final LinkedHashMap<String, Prefix> prefixes = new LinkedHashMap<>(16, 0.75f, true);
  private final AtomicLong tracked = new AtomicLong();

  /** @param objects the objects whose prefixes are kept at once; @param parts the parts they may hold in all */
  public InOrderDigests(int objects, long parts) {
    this.objects = objects;
    this.parts = parts;
  }

  /**
   * A part of {@code upload}'s object landed: bytes {@code range}, whose CRC32C (8 hex digits) its stream computed.
   * Returns the object's {@link #text} when this landing completed its prefix, else "".
   */
  public String landed(Reader reader, Upload upload, ByteRange range, String crc32c) {
    long size = upload.object().size();
    long crc = Integer.toUnsignedLong(HexFormat.fromHexDigits(crc32c));
    String key = upload.object().key() + '\n' + upload.id(); // ids are unique per folder, keys per bucket
    Prefix p = prefix(key);
    synchronized (p) {
      if (p.broken) return "";
      Long before = p.consumed.get(range.offset());
      if (before != null || range.offset() < p.end) {
        // landed again after the prefix passed it: the same bytes, or the digest no longer says what the file holds
        if (before == null || before != crc) p.breakOff(tracked);
        return "";
      }
      if (p.landed.put(range.offset(), new long[] {range.length(), crc}) == null) {
        p.parts.incrementAndGet();
        tracked.incrementAndGet();
      }
      if (p.broken) { // forgotten meanwhile
        p.breakOff(tracked);
        return "";
      }
      if (p.hashing) return ""; // the thread at the prefix's end takes this part too
      p.hashing = true;
    }
    return extend(reader, upload, key, p, size);
  }

  /** The prefix of the object {@code key} names, made where there is none; the least recently landed forgotten past the bounds. */
  private Prefix prefix(String key) {
    synchronized (prefixes) {
      Prefix p = prefixes.computeIfAbsent(key, k -> new Prefix());
      Iterator<Prefix> eldest = prefixes.values().iterator();
      while (prefixes.size() > 1 && (prefixes.size() > objects || tracked.get() > parts)) {
        Prefix gone = eldest.next();
        if (gone == p) break;
        gone.broken = true; // its landing thread, if any, stops at its next look
        tracked.addAndGet(-gone.parts.getAndSet(0));
        eldest.remove();
      }
      return p;
    }
  }

  /**
   * On the thread at the prefix's end: reads back and hashes each landed part that continues it, in order, while there
   * is one. Returns the object's {@link #text} when the prefix reached its end, else "".
   */
  private String extend(Reader reader, Upload upload, String key, Prefix p, long size) {
    try {
      while (true) {
        long offset;
        long[] part;
        synchronized (p) {
          Map.Entry<Long, long[]> next = p.landed.firstEntry();
          while (next != null && next.getKey() < p.end) { // landed again while the prefix passed it
            Long before = p.consumed.get(next.getKey());
            if (before == null || before != next.getValue()[1]) p.breakOff(tracked);
            p.landed.pollFirstEntry();
            next = p.landed.firstEntry();
          }
          if (next == null || next.getKey() != p.end || p.broken) {
            p.hashing = false;
            if (p.broken || p.end != size) return "";
            String staged = reader.staged(upload);
            forget(key, p);
            return staged == null ? "" : text(p.md5.value(), p.crc, staged);
          }
          p.landed.pollFirstEntry();
          offset = next.getKey();
          part = next.getValue();
        }
        Checksum.Digest back = Checksum.digest(Checksum.Algorithm.CRC32C);
        boolean read = reader.read(upload, new ByteRange(offset, part[0]), p.md5, back);
        synchronized (p) {
          if (!read || back.crc() != part[1]) {
            p.breakOff(tracked); // not readable, or the file holds other bytes than the stream wrote
            continue;
          }
          p.consumed.put(offset, part[1]);
          p.crc = Checksum.combine(Checksum.Algorithm.CRC32C, p.crc, part[1], part[0]);
          p.end = offset + part[0];
        }
      }
    } catch (IOException | RuntimeException e) {
      synchronized (p) {
        p.breakOff(tracked);
        p.hashing = false;
      }
      return "";
    }
  }

  private void forget(String key, Prefix p) {
    tracked.addAndGet(-p.parts.getAndSet(0));
    synchronized (prefixes) {
      prefixes.remove(key, p);
    }
  }

  /** "md5:HEX crc32c:HEX staged:STATE": the object's MD5, the CRC32C of the bytes it was taken from, the file's state. */
  public static String text(String md5, long crc32c, String staged) {
    return "md5:" + md5 + " crc32c:" + HexFormat.of().toHexDigits((int) crc32c) + " staged:" + staged;
  }

  /**
   * The MD5 (hex) in {@code text} where its CRC32C is {@code crc32c}, the committed parts' combined, and the staged
   * bytes are in the state it names still: else null, and the object is read back.
   */
  public static String md5(String text, long crc32c, String stagedNow) {
    if (text == null || stagedNow == null || !text.startsWith("md5:")) return null;
    String expected = " crc32c:" + HexFormat.of().toHexDigits((int) crc32c) + " staged:" + stagedNow;
    int space = text.indexOf(' ');
    return space > 0 && text.substring(space).equals(expected) ? text.substring("md5:".length(), space) : null;
  }
}
