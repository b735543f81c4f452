package io.ferry.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Random;

/**
 * CPU per GiB of the JDK's MD5 over 64 KiB objects (what checking a whole object's ETag costs), under the JIT compilers
 * the launcher is given: {@code FERRY_JIT=c1} (no MD5 intrinsic), {@code late-c2} or {@code default}.
 *   FERRY_JIT=c1 ferry_lab_java io.ferry.bench.DigestCost [MiB] [rounds]
 */
public final class DigestCost {
  private DigestCost() {}

  public static void main(String[] args) throws Exception {
    int mib = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    byte[] object = new byte[64 * 1024];
    new Random(1).nextBytes(object);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    for (int r = 0; r < rounds; r++) {
      long t0 = cpu.getCurrentThreadCpuTime();
      for (int i = 0; i < mib * 16; i++) {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        md5.update(object, 0, object.length);
        md5.digest();
      }
      long t1 = cpu.getCurrentThreadCpuTime();
      System.out.printf(Locale.ROOT, "round %d: %.2f CPU-s per GiB%n", r, (t1 - t0) / 1e9 / (mib / 1024.0));
    }
  }
}
