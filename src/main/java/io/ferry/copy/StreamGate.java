package io.ferry.copy;

import java.util.function.LongSupplier;

/**
 * The streams an executor JVM runs at once, across its tasks: a range takes a stream before it starts and gives it
 * back when it has its result. Fixed (the tasks' own threads bound them; no lock is taken), or tuned by
 * {@link StreamTuning} from the aggregate rate of each window: the window's bytes are those delivered by the ranges
 * that finished in it plus the change in the bytes still moving. Whichever range starts, waits or finishes after a
 * window has passed closes it, so no thread of its own runs. Free of Spark.
 */
public final class StreamGate {
  private final StreamTuning tuning;
  private final long windowNanos;
  private final LongSupplier clock;
  private final int fixed;
  private StreamTuning.State state;
  private int inUse;
  private boolean waited;
  private int finished;
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
  public int limit() {
    if (tuning == null) return fixed;
    synchronized (this) {
      return state.limit();
    }
  }

  /** Takes a stream, waiting while all are busy; returns the streams allowed when it was taken. */
  public int acquire() throws InterruptedException {
    if (tuning == null) return fixed; // nothing to wait for, nothing to count
    synchronized (this) {
      tick();
      while (inUse >= state.limit()) {
        waited = true;
        wait(Math.max(1, windowNanos / 1_000_000)); // timed: a window closes even when no range finishes
        tick();
      }
      inUse++;
      return state.limit();
    }
  }

  /** Gives a stream back with its range's result: {@code bytes} delivered, retried or not. */
  public void release(long delivered, boolean retried) {
    if (tuning == null) return;
    synchronized (this) {
      inUse--;
      bytes += delivered;
      finished++;
      if (retried) pushedBack++;
      tick();
      notify(); // one stream free: one range may start (a window that raised the limit woke them all)
    }
  }

  /** Bytes moving (positive) or settled (negative), as {@link Progress} tells them. */
  public void moving(long delta) {
    if (tuning == null) return;
    synchronized (this) {
      bytes += delta;
    }
  }

  private void tick() {
    long now = clock.getAsLong();
    if (now - windowStart < windowNanos) return;
    double rate = Math.max(0, bytes / ((now - windowStart) / 1e9)); // a restart takes back bytes of earlier windows
    StreamTuning.State next = tuning.next(state, new StreamTuning.Window(rate, waited, finished, pushedBack));
    if (next.limit() > state.limit()) notifyAll();
    state = next;
    windowStart = now;
    bytes = 0;
    waited = false; // a range still waiting says so again as it wakes
    finished = 0;
    pushedBack = 0;
  }
}
