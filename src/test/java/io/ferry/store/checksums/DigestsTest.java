package io.ferry.store.checksums;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.MessageDigest;
import java.security.Provider;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DigestsTest {
  /** Where CI and the benchmarks run, BoringSSL's digests load: a silent fallback would only show as CPU. */
  @Test
  void theNativeDigestsLoadOnLinuxX8664() {
    boolean linuxX64 = System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64");
    if (!linuxX64) System.err.println("DigestsTest: not Linux x86-64, so which digests load is not asserted here");
    if (linuxX64) assertThat(Digests.implementation()).as(Digests.fallback()).isEqualTo("boringssl");
  }

  /** The JDK's digest at every size around the 64-byte blocks and the padding's edge, however the bytes are fed. */
  @ParameterizedTest
  @ValueSource(strings = {"MD5", "SHA-1", "SHA-256"})
  void giveTheJdksDigestForAnySizeFedInAnyPieces(String algorithm) throws Exception {
    SplittableRandom random = new SplittableRandom(5);
    byte[] bytes = new byte[200_003];
    random.nextBytes(bytes);
    for (int size : new int[] {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 4095, 65_536, 65_537, 200_003}) {
      String jdk = HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(java.util.Arrays.copyOf(bytes, size)));
      MessageDigest pieces = switch (algorithm) {
        case "MD5" -> Digests.md5();
        case "SHA-1" -> Digests.sha1();
        default -> Digests.sha256();
      };
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

  @Test
  void theJdksAreUsedWhenAskedFor() {
    Digests.Loaded loaded = Digests.load("jdk", () -> {
      throw new AssertionError("not even tried");
    });
    assertThat(loaded.provider()).isNull();
    assertThat(loaded.why()).isEqualTo("ferry.digests=jdk");
  }

  @Test
  void theJdksAreUsedWhenTheNativeLibraryDoesNotLoadAndTheReasonIsKept() {
    Digests.Loaded loaded = Digests.load(null, () -> {
      throw new UnsatisfiedLinkError("no conscrypt_openjdk_jni-linux-riscv64 in java.library.path");
    });
    assertThat(loaded.provider()).isNull();
    assertThat(loaded.why()).contains("did not load").contains("riscv64");
  }

  /** A provider whose digest differs from the JDK's past the first block is refused: a broken build costs only speed. */
  @Test
  void aProviderThatDigestsWronglyIsRefused() {
    Provider wrong = new Provider("Wrong", "1", "MD5 that forgets all but the first 64 bytes") {};
    for (String algorithm : new String[] {"MD5", "SHA-1", "SHA-256"}) {
      wrong.put("MessageDigest." + algorithm, FirstBlockMd5.class.getName());
    }
    Digests.Loaded loaded = Digests.load(null, () -> wrong);
    assertThat(loaded.provider()).isNull();
    assertThat(loaded.why()).isEqualTo("BoringSSL's MD5 gave another digest than the JDK's");
  }

  /** The JDK's MD5 of the first 64 bytes fed, whatever follows. */
  public static final class FirstBlockMd5 extends java.security.MessageDigestSpi {
    private final byte[] first = new byte[64];
    private int length;

    @Override
    protected void engineUpdate(byte input) {
      if (length < 64) first[length++] = input;
    }

    @Override
    protected void engineUpdate(byte[] input, int offset, int len) {
      for (int i = 0; i < len; i++) engineUpdate(input[offset + i]);
    }

    @Override
    protected byte[] engineDigest() {
      try {
        return MessageDigest.getInstance("MD5").digest(java.util.Arrays.copyOf(first, length));
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      } finally {
        length = 0;
      }
    }

    @Override
    protected void engineReset() {
      length = 0;
    }
  }
}
