package io.ferry.spark;

import io.ferry.config.BucketConfig;
import io.ferry.copy.Concurrently;
import io.ferry.store.Destination;
import io.ferry.store.Lister;
import io.ferry.store.StoreObject;
import io.ferry.store.listing.ObjectFilter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;

/**
 * A delta pass's LIST, on the executors: each changed key (relative to the source's prefix) looked up on both sides,
 * {@code streams-per-task} at a time, instead of listing either. The source's object where the folders and globs take
 * it (its size and time are the triage's, as for a listed one), and the destination's where it holds one that is no
 * staging.
 */
public final class LookupFunction implements FlatMapFunction<Iterator<String>, LookupFunction.Found> {
  private static final long serialVersionUID = 1L;

  /** One key (relative to the source's prefix) and its two sides; either may be null. */
  public record Found(String key, StoreObject source, StoreObject destination) implements Serializable {}

  private final CopySettings settings;
  private final Listing.Counters sourceCounts;
  private final Listing.Counters destinationCounts;

  public LookupFunction(CopySettings settings, Listing.Counters sourceCounts, Listing.Counters destinationCounts) {
    this.settings = settings;
    this.sourceCounts = sourceCounts;
    this.destinationCounts = destinationCounts;
  }

  @Override
  public Iterator<Found> call(Iterator<String> keys) throws IOException {
    List<String> in = new ArrayList<>();
    keys.forEachRemaining(in::add);
    Lister source = ExecutorContext.source(settings).lister();
    Destination destination = ExecutorContext.destination(settings);
    Lister existing = destination.existing();
    ObjectFilter filter = new ObjectFilter(settings.source().selection());
    String prefix = ((BucketConfig) settings.source().store()).prefix();
    List<Object> found;
    try {
      found = Concurrently.map(in, settings.copy().streamsPerTask(), "ferry-lookup", key -> {
        try {
          StoreObject s = source.find(key);
          // a key the destination cannot hold (an unsafe path) is not looked for there: the plan rejects it
          boolean writable = destination.rejection(s != null ? s : new StoreObject(prefix + key, key, 0, "", 0)) == null;
          StoreObject d = writable ? existing.find(key) : null;
          return new Found(key, s != null && !s.isLink() && filter.selectsKey(s) ? s : null,
              d != null && !destination.isStaging(d) ? d : null);
        } catch (IOException | RuntimeException e) {
          return e; // after the retry policy: the pass fails as a listing does
        }
      });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while looking keys up");
    }
    List<Found> out = new ArrayList<>(found.size());
    for (Object f : found) {
      if (f instanceof IOException e) throw e;
      if (f instanceof RuntimeException e) throw e;
      Found pair = (Found) f;
      sourceCounts.listed.add(1);
      destinationCounts.listed.add(1);
      if (pair.source() != null) {
        sourceCounts.selected.add(1);
        sourceCounts.bytes.add(pair.source().size());
      }
      if (pair.destination() != null) destinationCounts.selected.add(1);
      out.add(pair);
    }
    return out.iterator();
  }
}
