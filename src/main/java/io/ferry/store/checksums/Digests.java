package io.ferry.store.checksums;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.conscrypt.Conscrypt;

/**
 * The digests Ferry runs over every byte it copies (MD5 against ETags, SHA-1 and SHA-256 against stored checksums and
 * of signed upload bodies), from BoringSSL through Conscrypt's provider where its native library loads (Linux and macOS
 * on x86-64 and ARM64, Windows on x86-64), else the JDK's. Under C1 alone, which short local jobs run with ({@code
 * copy/LocalJit}), the JDK's have no intrinsics, and cost several times the CPU. The provider is never installed: only
 * these digests use it, and TLS and the rest keep the JDK's. The JVM property {@code ferry.digests=jdk} keeps the JDK's
 * (locally through {@code FERRY_DRIVER_OPTS}, on a cluster through {@code spark.driver.extraJavaOptions} and {@code
 * spark.executor.extraJavaOptions}).
 */
public final class Digests {
  private static final String[] ALGORITHMS = {"MD5", "SHA-1", "SHA-256"};
  private static final Loaded LOADED = load(System.getProperty("ferry.digests"), Digests::conscrypt);

  private Digests() {}

  /** Which provider serves the digests, and why the JDK's where BoringSSL's do not. */
  record Loaded(Provider provider, String why) {}

  public static MessageDigest md5() {
    return of("MD5");
  }

  public static MessageDigest sha1() {
    return of("SHA-1");
  }

  public static MessageDigest sha256() {
    return of("SHA-256");
  }

  /** Whose digests these are: "boringssl" or "jdk". */
  public static String implementation() {
    return LOADED.provider() != null ? "boringssl" : "jdk";
  }

  /** Why the digests are the JDK's; empty when they are BoringSSL's. */
  public static String fallback() {
    return LOADED.why();
  }

  private static MessageDigest of(String algorithm) {
    try {
      return LOADED.provider() != null ? MessageDigest.getInstance(algorithm, LOADED.provider()) : MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Provider conscrypt() {
    Conscrypt.checkAvailability(); // throws why its native library did not load
    return Conscrypt.newProvider();
  }

  /**
   * The provider to use: {@code candidate}'s, unless {@code property} is "jdk" or the candidate fails to load or gives
   * another digest than the JDK's for the same bytes (200 KiB fed in uneven pieces: several blocks, and updates above
   * the sizes a native call copies at once), so that a broken native build can only cost speed.
   */
  static Loaded load(String property, Supplier<Provider> candidate) {
    if ("jdk".equals(property)) return new Loaded(null, "ferry.digests=jdk");
    try {
      Provider provider = candidate.get();
      byte[] bytes = new byte[200 << 10];
      new SplittableRandom(1).nextBytes(bytes);
      for (String algorithm : ALGORITHMS) {
        MessageDigest ours = MessageDigest.getInstance(algorithm, provider);
        for (int at = 0, step = 1; at < bytes.length; at += step, step = step * 7 % 70_001 + 1) {
          ours.update(bytes, at, Math.min(step, bytes.length - at));
        }
        if (!Arrays.equals(ours.digest(), MessageDigest.getInstance(algorithm).digest(bytes))) {
          return new Loaded(null, "BoringSSL's " + algorithm + " gave another digest than the JDK's");
        }
      }
      return new Loaded(provider, "");
    } catch (GeneralSecurityException | LinkageError | RuntimeException e) {
      return new Loaded(null, "BoringSSL's digests did not load (" + e + ")");
    }
  }
}
