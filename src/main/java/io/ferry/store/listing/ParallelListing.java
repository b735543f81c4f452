package io.ferry.store.listing;

import io.ferry.store.ListCounts;
import io.ferry.store.Lister;
import io.ferry.store.Shard;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Lists shards on a few threads at once and hands their objects on through a bounded queue, so a task's memory holds
 * a few pages, not its shards. The first failure of a shard ends the iteration with it (the caller's retry policy
 * has already been spent on each page); closing stops the threads.
 */
public final class ParallelListing implements Iterator<StoreObject>, AutoCloseable {
  /** Lists one shard into a consumer. */
  @FunctionalInterface
  public interface ShardLister {
    Lister.Listed list(Shard shard, Consumer<StoreObject> consumer) throws IOException;
  }

  private static final Object END = new Object();
  private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(4096);
  private final ExecutorService pool;
  private final AtomicInteger remaining;
  private ListCounts counts = ListCounts.NONE;
  private final List<Shard> rest = new ArrayList<>();
  private volatile IOException failure;
  private Object next;
  private boolean ended;

  public ParallelListing(List<Shard> shards, int threads, ShardLister lister) {
    remaining = new AtomicInteger(shards.size());
    AtomicInteger n = new AtomicInteger();
    pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, shards.size())), r -> {
      Thread t = new Thread(r, "ferry-list-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    if (shards.isEmpty()) queue.add(END);
    for (Shard shard : shards) {
      pool.execute(() -> {
        try {
          Lister.Listed listed = lister.list(shard, o -> put(o));
          synchronized (this) {
            counts = counts.plus(listed.counts());
            rest.addAll(listed.rest());
          }
          if (remaining.decrementAndGet() == 0) put(END);
        } catch (InterruptedCancel e) {
          // closed
        } catch (IOException | RuntimeException e) {
          fail(e instanceof IOException io ? io : new IOException(e.toString(), e));
        }
      });
    }
  }

  /** What the shards listed so far saw. */
  public synchronized ListCounts counts() {
    return counts;
  }

  /** What is left of the shards, in pieces: complete once the iteration has ended. */
  public synchronized List<Shard> rest() {
    return List.copyOf(rest);
  }

  private void put(Object o) {
    try {
      queue.put(o);
    } catch (InterruptedException e) {
      throw new InterruptedCancel();
    }
  }

  private void fail(IOException e) {
    synchronized (this) {
      if (failure == null) failure = e;
    }
    queue.clear(); // room for the wake-up; the reader stops at the failure, so what was queued is not wanted
    queue.offer(END);
  }

  @Override
  public boolean hasNext() {
    if (next != null) return true;
    if (ended) return false;
    try {
      Object o = queue.take();
      if (failure != null) {
        ended = true;
        close();
        throw new UncheckedIOException(failure);
      }
      if (o == END) {
        ended = true;
        pool.shutdown();
        return false;
      }
      next = o;
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new UncheckedIOException(new InterruptedIOException("interrupted while listing"));
    }
  }

  @Override
  public StoreObject next() {
    if (!hasNext()) throw new NoSuchElementException();
    StoreObject o = (StoreObject) next;
    next = null;
    return o;
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }

  /** A listing thread stopped by {@link #close}. */
  private static final class InterruptedCancel extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InterruptedCancel() {
      super(null, null, false, false);
    }
  }
}
