package io.ferry.store.checksums;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.store.checksums.Checksum.Algorithm;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class ChecksumTest {
  private static final byte[] CHECK = "123456789".getBytes(StandardCharsets.US_ASCII);

  private static long crc(Algorithm algorithm, byte[] bytes, int offset, int length) {
    Checksum.Digest d = Checksum.digest(algorithm);
    d.update(bytes, offset, length);
    return d.crc();
  }

  @Test
  void theCatalogueCheckValuesOfEachCrc() {
    assertThat(crc(Algorithm.CRC32, CHECK, 0, 9)).isEqualTo(0xCBF43926L);
    assertThat(crc(Algorithm.CRC32C, CHECK, 0, 9)).isEqualTo(0xE3069283L);
    assertThat(crc(Algorithm.CRC64NVME, CHECK, 0, 9)).isEqualTo(0xAE8B14860A799888L);
  }

  @Test
  void crc64NvmeGivesTheSameValueWhateverTheChunksItIsFedIn() {
    byte[] bytes = new byte[10_007];
    new SplittableRandom(1).nextBytes(bytes);
    long whole = crc(Algorithm.CRC64NVME, bytes, 0, bytes.length);
    Crc64Nvme pieces = new Crc64Nvme();
    for (int at = 0, step = 1; at < bytes.length; at += step, step = step * 3 % 17 + 1) {
      pieces.update(bytes, at, Math.min(step, bytes.length - at));
    }
    assertThat(pieces.getValue()).isEqualTo(whole);
    Crc64Nvme single = new Crc64Nvme();
    for (byte b : bytes) single.update(b);
    assertThat(single.getValue()).isEqualTo(whole);
  }

  /** The CRC of an object from its ranges' CRCs, at boundaries 0, 1, 7, 8, 9 and odd sizes, equals the CRC computed whole. */
  @ParameterizedTest
  @EnumSource(value = Algorithm.class, names = {"CRC32", "CRC32C", "CRC64NVME"})
  void rangeCrcsCombineIntoTheWholeObjectsCrc(Algorithm algorithm) {
    byte[] bytes = new byte[65_543];
    new SplittableRandom(2).nextBytes(bytes);
    long whole = crc(algorithm, bytes, 0, bytes.length);
    for (int[] cuts : new int[][] {{0}, {1}, {7, 8, 9}, {1000, 30_000, 65_542}, {65_543}}) {
      long combined = 0;
      int from = 0;
      for (int i = 0; i <= cuts.length; i++) {
        int to = i < cuts.length ? cuts[i] : bytes.length;
        combined = Checksum.combine(algorithm, combined, crc(algorithm, bytes, from, to - from), to - from);
        from = to;
      }
      assertThat(combined).as("%s cut at %s", algorithm, java.util.Arrays.toString(cuts)).isEqualTo(whole);
    }
  }

  @Test
  void valuesAreInTheStoresBase64FormAndBack() {
    assertThat(Checksum.encode(0xE3069283L, 4)).isEqualTo("4waSgw==");
    assertThat(Checksum.decode("4waSgw==")).isEqualTo(0xE3069283L);
    assertThat(Checksum.decode(Checksum.encode(0xAE8B14860A799888L, 8))).isEqualTo(0xAE8B14860A799888L);
    Checksum.Digest md5 = Checksum.digest(Algorithm.MD5);
    md5.update(CHECK, 0, 9);
    assertThat(md5.value()).isEqualTo("25f9e794323b453885f5181f1b624d0b");
  }
}
