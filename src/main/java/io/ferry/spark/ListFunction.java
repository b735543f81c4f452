package io.ferry.spark;

import io.ferry.store.ListCounts;
import io.ferry.store.Lister;
import io.ferry.store.listing.ObjectFilter;
import io.ferry.store.listing.ParallelListing;
import io.ferry.store.Shard;
import io.ferry.store.StoreObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;

/**
 * LIST, on the executors: a partition's shards listed on {@code streams-per-task} threads at once, their objects
 * handed on as their pages arrive. The source's are those its globs select; the destination's, all of them.
 */
final class ListFunction implements FlatMapFunction<Iterator<Shard>, StoreObject> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;
  private final boolean source;
  private final Listing.Counters counters;

  ListFunction(CopySettings settings, boolean source, Listing.Counters counters) {
    this.settings = settings;
    this.source = source;
    this.counters = counters;
  }

  @Override
  public Iterator<StoreObject> call(Iterator<Shard> partition) {
    List<Shard> shards = new ArrayList<>();
    partition.forEachRemaining(shards::add);
    Lister lister = source ? ExecutorContext.source(settings).lister() : ExecutorContext.destination(settings).existing();
    ObjectFilter filter = new ObjectFilter(settings.source().selection());
    ParallelListing listing = new ParallelListing(shards, settings.copy().streamsPerTask(),
        source ? (shard, consumer) -> filter.list(lister, shard, consumer) : lister::list);
    TaskContext task = TaskContext.get();
    if (task != null) task.addTaskCompletionListener((org.apache.spark.util.TaskCompletionListener) t -> listing.close());
    return new Iterator<>() {
      private boolean counted;

      @Override
      public boolean hasNext() {
        boolean more = listing.hasNext();
        if (!more && !counted) {
          counted = true;
          ListCounts c = listing.counts();
          counters.add(c);
        }
        return more;
      }

      @Override
      public StoreObject next() {
        StoreObject o = listing.next();
        counters.selected.add(1);
        counters.bytes.add(o.size());
        return o;
      }
    };
  }
}
