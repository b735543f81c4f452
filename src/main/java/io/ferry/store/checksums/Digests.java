package io.ferry.store.checksums;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.util.HexFormat;
import org.conscrypt.Conscrypt;

/**
 * The digests Ferry runs over every byte it copies (MD5 against ETags, SHA-256 of signed payloads), from BoringSSL
 * through Conscrypt's provider where its native library loads (Linux and macOS on x86-64 and ARM64, Windows on
 * x86-64), else the JDK's. Under C1 alone, which short local jobs run with ({@code copy/LocalJit}), the JDK's have no
 * intrinsics: its MD5 takes about 1.7 times the CPU and its SHA-256 ten times (bench/results). The provider is never
 * installed: only these digests use it, and TLS and the rest keep the JDK's. {@code -Dferry.digests=jdk} keeps the
 * JDK's.
 */
public final class Digests {
  private static final Provider NATIVE = load();

  private Digests() {}

  public static MessageDigest md5() {
    return of("MD5");
  }

  public static MessageDigest sha256() {
    return of("SHA-256");
  }

  /** Whose digests these are: "boringssl" or "jdk". */
  public static String implementation() {
    return NATIVE != null ? "boringssl" : "jdk";
  }

  private static MessageDigest of(String algorithm) {
    try {
      return NATIVE != null ? MessageDigest.getInstance(algorithm, NATIVE) : MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Provider load() {
    if ("jdk".equals(System.getProperty("ferry.digests"))) return null;
    try {
      if (!Conscrypt.isAvailable()) return null; // no native library for this platform, or it could not be loaded
      Provider provider = Conscrypt.newProvider();
      // known answers (RFC 1321's and FIPS 180-2's "abc"), so that a broken native build can only cost speed
      byte[] abc = "abc".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      boolean md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5", provider).digest(abc))
          .equals("900150983cd24fb0d6963f7d28e17f72");
      boolean sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256", provider).digest(abc))
          .equals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
      return md5 && sha256 ? provider : null;
    } catch (GeneralSecurityException | LinkageError | RuntimeException e) {
      return null;
    }
  }
}
