package io.ferry.store.checksums;

import java.util.zip.Checksum;

/**
 * CRC-64/NVME, the checksum S3 stores by default for objects uploaded without one (reflected polynomial
 * 0x9A6C9329AC4BC9B5, initial value and final xor all ones): slicing by eight, as the JDK has no CRC-64 and the SDK's
 * comes from its native runtime.
 */
public final class Crc64Nvme implements Checksum {
  static final long POLY = 0x9A6C9329AC4BC9B5L;
  private static final long[][] TABLES = new long[8][256];

  static {
    for (int n = 0; n < 256; n++) {
      long crc = n;
      for (int k = 0; k < 8; k++) crc = (crc & 1) != 0 ? (crc >>> 1) ^ POLY : crc >>> 1;
      TABLES[0][n] = crc;
    }
    for (int n = 0; n < 256; n++) {
      for (int t = 1; t < 8; t++) TABLES[t][n] = (TABLES[t - 1][n] >>> 8) ^ TABLES[0][(int) (TABLES[t - 1][n] & 0xff)];
    }
  }

  private long crc = ~0L;

  @Override
  public void update(int b) {
    crc = (crc >>> 8) ^ TABLES[0][(int) ((crc ^ b) & 0xff)];
  }

  @Override
  public void update(byte[] b, int off, int len) {
    long c = crc;
    int i = off;
    int end = off + len;
    for (; end - i >= 8; i += 8) {
      c ^= (b[i] & 0xffL) | (b[i + 1] & 0xffL) << 8 | (b[i + 2] & 0xffL) << 16 | (b[i + 3] & 0xffL) << 24
          | (b[i + 4] & 0xffL) << 32 | (b[i + 5] & 0xffL) << 40 | (b[i + 6] & 0xffL) << 48 | (b[i + 7] & 0xffL) << 56;
      c = TABLES[7][(int) (c & 0xff)] ^ TABLES[6][(int) ((c >>> 8) & 0xff)] ^ TABLES[5][(int) ((c >>> 16) & 0xff)]
          ^ TABLES[4][(int) ((c >>> 24) & 0xff)] ^ TABLES[3][(int) ((c >>> 32) & 0xff)] ^ TABLES[2][(int) ((c >>> 40) & 0xff)]
          ^ TABLES[1][(int) ((c >>> 48) & 0xff)] ^ TABLES[0][(int) (c >>> 56)];
    }
    for (; i < end; i++) c = (c >>> 8) ^ TABLES[0][(int) ((c ^ b[i]) & 0xff)];
    crc = c;
  }

  @Override
  public long getValue() {
    return ~crc;
  }

  @Override
  public void reset() {
    crc = ~0L;
  }
}
