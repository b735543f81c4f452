package io.ferry.store.checksums;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class DigestsTest {
  /** Where CI and the benchmarks run, BoringSSL's digests load: a silent fallback would only show as CPU. */
  @Test
  void theNativeDigestsLoadOnLinuxX8664() {
    boolean linuxX64 = System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64");
    if (!linuxX64) System.err.println("DigestsTest: not Linux x86-64, so which digests load is not asserted here");
    if (linuxX64) assertThat(Digests.implementation()).isEqualTo("boringssl");
  }

  /** The JDK's digest at every size around the 64-byte blocks and the padding's edge, however the bytes are fed. */
  @ParameterizedTest
  @ValueSource(strings = {"MD5", "SHA-256"})
  void giveTheJdksDigestForAnySizeFedInAnyPieces(String algorithm) throws Exception {
    SplittableRandom random = new SplittableRandom(5);
    byte[] bytes = new byte[200_003];
    random.nextBytes(bytes);
    for (int size : new int[] {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 4095, 65_536, 65_537, 200_003}) {
      String jdk = HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(java.util.Arrays.copyOf(bytes, size)));
      MessageDigest pieces = algorithm.equals("MD5") ? Digests.md5() : Digests.sha256();
      for (int at = 0; at < size; ) {
        int n = Math.min(size - at, random.nextInt(1, 70_000));
        pieces.update(bytes, at, n);
        at += n;
      }
      assertThat(HexFormat.of().formatHex(pieces.digest())).as("%s of %d bytes", algorithm, size).isEqualTo(jdk);
      // a digest starts over after digest(), as the JDK's does: the same bytes again give the same value
      pieces.update(bytes, 0, size);
      assertThat(HexFormat.of().formatHex(pieces.digest())).isEqualTo(jdk);
    }
  }
}
