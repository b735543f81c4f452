package io.ferry.support;

import io.ferry.support.FaultProxy.Fault;
import io.ferry.support.FaultProxy.Kind;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * S3's request-rate rule for one partitioned prefix, for the fault proxy: requests whose path starts with {@code path}
 * beyond {@code perSecond} in any second are answered 503 SlowDown and never reach the server, as S3 answers above
 * its 3,500 writes or 5,500 reads a second per prefix.
 */
public final class SlowDownAbove implements FaultProxy.Decider {
  private final String path;
  private final int perSecond;
  private final ArrayDeque<Long> passed = new ArrayDeque<>();
  private final AtomicLong slowed = new AtomicLong();
  private final AtomicLong forwarded = new AtomicLong();

  public SlowDownAbove(String path, int perSecond) {
    this.path = path;
    this.perSecond = perSecond;
  }

  @Override
  public synchronized Fault decide(Kind kind, String target, Map<String, String> headers) {
    if (!target.startsWith(path)) return null;
    long now = System.nanoTime();
    while (!passed.isEmpty() && now - passed.peekFirst() >= 1_000_000_000L) passed.pollFirst();
    if (passed.size() >= perSecond) {
      slowed.incrementAndGet();
      return Fault.slowDown();
    }
    passed.addLast(now);
    forwarded.incrementAndGet();
    return null;
  }

  /** Requests answered 503 SlowDown. */
  public long slowed() {
    return slowed.get();
  }

  /** Requests let through to the server. */
  public long forwarded() {
    return forwarded.get();
  }
}
