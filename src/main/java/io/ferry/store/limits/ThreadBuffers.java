package io.ferry.store.limits;

/**
 * A copy buffer per thread for one use, kept between uses: a stream thread copying thousands of small objects would
 * otherwise allocate (and the JVM zero) a fresh buffer for each, which was 7% of the driver's CPU samples copying
 * 2,000 objects of 256 KiB to another endpoint (perf). Each use site has its own instance, so nested uses on one
 * thread never share an array.
 */
public final class ThreadBuffers {
  private final ThreadLocal<byte[]> buffers = new ThreadLocal<>();

  /** This thread's buffer, at least {@code size} bytes long (longer if an earlier use needed more). */
  public byte[] get(int size) {
    byte[] b = buffers.get();
    if (b == null || b.length < size) {
      b = new byte[size];
      buffers.set(b);
    }
    return b;
  }
}
