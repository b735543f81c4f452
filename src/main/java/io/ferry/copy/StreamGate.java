package io.ferry.copy;

import java.util.function.LongSupplier;

/**
 * The streams an executor JVM runs at once, across its tasks: a range takes a stream before it starts and gives it
 * back when it has its result. Fixed (the tasks' own threads bound them), or tuned by {@link StreamTuning} from the
 * aggregate rate of each window: the window's bytes are those of the ranges that finished in it plus the change in
 * the bytes still moving. Whichever range starts or finishes after a window has passed closes it, so no thread of its
 * own runs. Free of Spark.
 */
public final class StreamGate {
  private final StreamTuning tuning;
  private final long windowNanos;
  private final LongSupplier clock;
  private final int fixed;
  private StreamTuning.State state;
  private int inUse;
  private boolean waited;
  private int pushedBack;
  private long windowStart;
  private long bytes; // finished ranges' bytes and the bytes moving, since the window began

  /** @param tuning null: a fixed gate of {@code start} streams, which never holds a range back */
  public StreamGate(StreamTuning tuning, int start, long windowNanos, LongSupplier clock) {
    this.tuning = tuning;
    this.fixed = start;
    this.windowNanos = windowNanos;
    this.clock = clock;
    this.state = tuning == null ? null : tuning.start(start);
    this.windowStart = clock.getAsLong();
  }

  /** The executor's {@code streams}, held by its tasks' own threads: the gate holds no range back. */
  public static StreamGate fixed(int streams) {
    return new StreamGate(null, streams, Long.MAX_VALUE, System::nanoTime);
  }

  /** A gate tuned by the aggregate rate over windows of {@code windowNanos}. */
  public static StreamGate tuned(StreamTuning tuning, int start, long windowNanos) {
    return new StreamGate(tuning, start, windowNanos, System::nanoTime);
  }

  /** Streams allowed now. */
  public synchronized int limit() {
    return state == null ? fixed : state.limit();
  }

  /** Takes a stream, waiting while all are busy; returns the streams allowed when it was taken. */
  public synchronized int acquire() throws InterruptedException {
    if (state == null) return fixed;
    tick();
    while (inUse >= state.limit()) {
      waited = true;
      wait(Math.max(1, windowNanos / 1_000_000));
      tick();
    }
    inUse++;
    return state.limit();
  }

  /** Gives a stream back with its range's result: {@code payload} bytes, retried or not. */
  public synchronized void release(long payload, boolean retried) {
    if (state == null) return;
    inUse--;
    bytes += payload;
    if (retried) pushedBack++;
    tick();
    notifyAll();
  }

  /** Bytes moving (positive) or settled (negative), as {@link Progress} tells them. */
  public synchronized void moving(long delta) {
    if (state == null) return;
    bytes += delta;
  }

  private void tick() {
    long now = clock.getAsLong();
    if (now - windowStart < windowNanos) return;
    double rate = bytes / ((now - windowStart) / 1e9);
    StreamTuning.State next = tuning.next(state, new StreamTuning.Window(rate, waited, pushedBack));
    state = next;
    windowStart = now;
    bytes = 0;
    waited = false; // a range still waiting says so again as it wakes
    pushedBack = 0;
    notifyAll();
  }
}
