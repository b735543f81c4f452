package io.ferry.spark;

import io.ferry.store.ListCounts;
import io.ferry.store.Lister;
import io.ferry.store.Shard;
import io.ferry.store.StoreObject;
import io.ferry.store.listing.ObjectFilter;
import io.ferry.store.listing.ParallelListing;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.util.TaskCompletionListener;

/**
 * LIST, on the executors: a partition's shards listed on {@code streams-per-task} threads at once, their objects
 * handed on as their pages arrive, then what is left of the shards that proved large, in pieces for the listing's next
 * round. The source's objects are those its globs select; the destination's, all of them.
 */
public final class ListFunction implements FlatMapFunction<Iterator<Shard>, ListFunction.Found> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;
  private final boolean source;
  private final Listing.Counters counters;
  private final int pages;
  private final int pageKeys;

  /** An object listed, or a piece of a shard left for the next round. */
  public record Found(StoreObject object, Shard rest) implements Serializable {}

  /**
   * @param pages how long each shard is listed before what is left of it is split (0: to its end)
   * @param pageKeys keys asked for in each page
   */
  public ListFunction(CopySettings settings, boolean source, Listing.Counters counters, int pages, int pageKeys) {
    this.settings = settings;
    this.source = source;
    this.counters = counters;
    this.pages = pages;
    this.pageKeys = pageKeys;
  }

  @Override
  public Iterator<Found> call(Iterator<Shard> partition) {
    List<Shard> shards = new ArrayList<>();
    partition.forEachRemaining(shards::add);
    Lister lister = source ? ExecutorContext.source(settings).lister() : ExecutorContext.destination(settings).existing();
    ObjectFilter filter = new ObjectFilter(settings.source().selection());
    ParallelListing listing = new ParallelListing(shards, settings.copy().streamsPerTask(),
        source ? (shard, consumer) -> filter.listSome(lister, shard, pages, pageKeys, consumer)
            : (shard, consumer) -> lister.listSome(shard, pages, pageKeys, consumer));
    TaskContext task = TaskContext.get();
    if (task != null) task.addTaskCompletionListener((TaskCompletionListener) t -> listing.close());
    return new Iterator<>() {
      private Iterator<Shard> rest;

      @Override
      public boolean hasNext() {
        if (rest == null && listing.hasNext()) return true;
        if (rest == null) {
          ListCounts c = listing.counts();
          counters.add(c);
          rest = listing.rest().iterator();
        }
        return rest.hasNext();
      }

      @Override
      public Found next() {
        if (!hasNext()) throw new NoSuchElementException();
        if (rest != null) return new Found(null, rest.next());
        StoreObject o = listing.next();
        counters.selected.add(1);
        counters.bytes.add(o.size());
        return new Found(o, null);
      }
    };
  }
}
