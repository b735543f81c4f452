package io.ferry.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import io.ferry.store.checksums.Digests;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Random;

/**
 * CPU per GiB of MD5 (what checking a whole object's ETag costs) or SHA-256 (signing an upload's body) over 64 KiB
 * objects, as Ferry computes them ({@link Digests}:
 * BoringSSL's where it loads; the JDK's with {@code FERRY_DRIVER_OPTS="-Xmx4g -Dferry.digests=jdk"}), under the JIT
 * compilers the launcher is given: {@code FERRY_JIT=c1} (no intrinsic for the JDK's), {@code late-c2} or {@code default}.
 *   FERRY_JIT=c1 ferry_lab_java io.ferry.bench.DigestCost [MiB] [rounds] [MD5|SHA-256]
 */
public final class DigestCost {
  private DigestCost() {}

  public static void main(String[] args) throws Exception {
    int mib = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    boolean md5 = args.length < 3 || args[2].equals("MD5");
    byte[] object = new byte[64 * 1024];
    new Random(1).nextBytes(object);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    System.out.println((md5 ? "MD5" : "SHA-256") + ": " + Digests.implementation());
    for (int r = 0; r < rounds; r++) {
      long t0 = cpu.getCurrentThreadCpuTime();
      for (int i = 0; i < mib * 16; i++) {
        MessageDigest digest = md5 ? Digests.md5() : Digests.sha256();
        digest.update(object, 0, object.length);
        digest.digest();
      }
      long t1 = cpu.getCurrentThreadCpuTime();
      System.out.printf(Locale.ROOT, "round %d: %.2f CPU-s per GiB%n", r, (t1 - t0) / 1e9 / (mib / 1024.0));
    }
  }
}
