package io.ferry.store.checksums;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * A checksum of an object's (or a range's) bytes, as stores name them: S3's flexible checksums (base64 of the
 * big-endian digest), or the hex MD5 of a plain ETag.
 *
 * @param composite the store's checksum of its parts' checksums (a multipart object's "...-N"), not of the bytes
 */
public record Checksum(Algorithm algorithm, String value, boolean composite) implements Serializable {
  /** The algorithms a store may have an object's checksum in. */
  public enum Algorithm {
    CRC32, CRC32C, CRC64NVME, SHA1, SHA256, MD5;

    /** The CRCs: their values over ranges combine into the value over the whole ({@link #combine}). */
    public boolean combinable() {
      return this == CRC32 || this == CRC32C || this == CRC64NVME;
    }

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public Checksum {
    Objects.requireNonNull(algorithm, "algorithm is null");
    Objects.requireNonNull(value, "value is null");
  }

  /** Whether the bytes can be checked against it: a composite of parts cannot be, without the parts' boundaries. */
  public boolean checkable() {
    return !composite;
  }

  @Override
  public String toString() {
    return algorithm.label() + " " + value + (composite ? " (composite)" : "");
  }

  /** "algorithm:value", with ":composite" for a composite: the form the datasets keep. */
  public String text() {
    return algorithm.label() + ":" + value + (composite ? ":composite" : "");
  }

  /** {@link #text()} back to a checksum; null for "" or null. */
  public static Checksum parse(String text) {
    if (text == null || text.isEmpty()) return null;
    String[] f = text.split(":");
    return new Checksum(Algorithm.valueOf(f[0].toUpperCase(Locale.ROOT)), f[1], f.length > 2 && f[2].equals("composite"));
  }

  /** A running digest of one algorithm. */
  public interface Digest {
    void update(byte[] bytes, int offset, int length);

    /** The value in the store's form (base64; hex for MD5). */
    String value();

    /** For the CRCs, the value as a number (for {@link #combine}); -1 otherwise. */
    long crc();
  }

  public static Digest digest(Algorithm algorithm) {
    return switch (algorithm) {
      case CRC32 -> crc(new CRC32(), 4);
      case CRC32C -> crc(new CRC32C(), 4);
      case CRC64NVME -> crc(new Crc64Nvme(), 8);
      case SHA1 -> message(Digests.sha1(), false);
      case SHA256 -> message(Digests.sha256(), false);
      case MD5 -> message(Digests.md5(), true);
    };
  }

  private static Digest crc(java.util.zip.Checksum checksum, int bytes) {
    return new Digest() {
      @Override
      public void update(byte[] b, int off, int len) {
        checksum.update(b, off, len);
      }

      @Override
      public String value() {
        return encode(checksum.getValue(), bytes);
      }

      @Override
      public long crc() {
        return checksum.getValue();
      }
    };
  }

  private static Digest message(MessageDigest md, boolean hex) {
    return new Digest() {
      private String done;

      @Override
      public void update(byte[] b, int off, int len) {
        md.update(b, off, len);
      }

      @Override
      public String value() {
        if (done == null) {
          byte[] d = md.digest();
          done = hex ? HexFormat.of().formatHex(d) : Base64.getEncoder().encodeToString(d);
        }
        return done;
      }

      @Override
      public long crc() {
        return -1;
      }
    };
  }

  /** A CRC's value in the store's form: base64 of its {@code bytes} big-endian bytes. */
  public static String encode(long crc, int bytes) {
    ByteBuffer b = ByteBuffer.allocate(8).putLong(crc);
    return Base64.getEncoder().encodeToString(Arrays.copyOfRange(b.array(), 8 - bytes, 8));
  }

  /** A CRC from the store's form. */
  public static long decode(String base64) {
    long crc = 0;
    for (byte b : Base64.getDecoder().decode(base64)) crc = (crc << 8) | (b & 0xff);
    return crc;
  }

  /**
   * The CRC of A followed by B, from the CRCs of A and B and the length of B (zlib's crc32_combine, which holds for
   * all three reflected CRCs S3 uses): crc(AB) = crc(A) · x^(8·len B) mod P xor crc(B).
   */
  public static long combine(Algorithm algorithm, long crcA, long crcB, long lengthB) {
    if (lengthB == 0) return crcA;
    long poly = switch (algorithm) {
      case CRC32 -> 0xEDB88320L;
      case CRC32C -> 0x82F63B78L;
      case CRC64NVME -> Crc64Nvme.POLY;
      default -> throw new IllegalArgumentException(algorithm + " values do not combine");
    };
    int width = algorithm == Algorithm.CRC64NVME ? 64 : 32;
    return multiply(xPower8n(lengthB, poly, width), crcA, poly, width) ^ crcB;
  }

  /** a · b mod P, in the reflected bit order of the CRC. */
  private static long multiply(long a, long b, long poly, int width) {
    long m = 1L << (width - 1);
    long p = 0;
    while (true) {
      if ((a & m) != 0) {
        p ^= b;
        if ((a & (m - 1)) == 0) break;
      }
      m >>>= 1;
      b = (b & 1) != 0 ? (b >>> 1) ^ poly : b >>> 1;
    }
    return p;
  }

  /** x^(8n) mod P. */
  private static long xPower8n(long n, long poly, int width) {
    long r = 1L << (width - 1);
    long square = 1L << (width - 2);
    for (int i = 0; i < 3; i++) square = multiply(square, square, poly, width);
    for (long e = n; e != 0; e >>>= 1) {
      if ((e & 1) != 0) r = multiply(square, r, poly, width);
      if ((e >>> 1) != 0) square = multiply(square, square, poly, width);
    }
    return r;
  }

  /** The byte width of a CRC's value. */
  public static int crcBytes(Algorithm algorithm) {
    return algorithm == Algorithm.CRC64NVME ? 8 : 4;
  }
}
