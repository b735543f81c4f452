package io.ferry.spark;

import io.ferry.config.BucketConfig;
import io.ferry.copy.Concurrently;
import io.ferry.manifest.ManifestEntry;
import io.ferry.manifest.ManifestPart;
import io.ferry.manifest.Manifests;
import io.ferry.store.Lister;
import io.ferry.store.StoreObject;
import io.ferry.store.listing.ObjectFilter;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;

/**
 * LIST from a manifest, on the executors: each piece read into the objects it names that lie under the source's
 * prefix and that its globs select. Without {@code manifest-check} the manifest's sizes and ETags are taken as they
 * are; with it, {@link Check} asks the source for each.
 */
public final class ManifestFunction implements FlatMapFunction<Iterator<ManifestPart>, ManifestFunction.Checked> {
  private static final long serialVersionUID = 1L;

  /** An object a manifest names, and whether the source no longer holds it. */
  public record Checked(StoreObject object, boolean missing) implements Serializable {}

  private final CopySettings settings;
  private final Listing.Counters counters;

  public ManifestFunction(CopySettings settings, Listing.Counters counters) {
    this.settings = settings;
    this.counters = counters;
  }

  @Override
  public Iterator<Checked> call(Iterator<ManifestPart> parts) throws IOException {
    String prefix = ((BucketConfig) settings.source().store()).prefix();
    ObjectFilter filter = new ObjectFilter(settings.source().selection());
    boolean check = settings.source().checkManifest();
    List<Checked> out = new ArrayList<>();
    while (parts.hasNext()) {
      ManifestPart part = parts.next();
      long[] listed = {0}, filtered = {0};
      Manifests.read(part, ExecutorContext.manifestFiles(settings), e -> {
        listed[0]++;
        if (!e.key().startsWith(prefix) || e.key().endsWith("/") && e.size() <= 0) {
          filtered[0]++;
          return;
        }
        if (e.size() < 0 && !check) {
          throw new IllegalArgumentException("the manifest " + part.location() + " gives no size for " + e.key()
              + ": give sizes (key<TAB>size<TAB>etag), or set ferry.source.manifest-check = true to look each key up");
        }
        StoreObject o = object(e, prefix);
        if (!filter.selectsKey(o)) {
          filtered[0]++;
          return;
        }
        out.add(new Checked(o, false));
        if (!check) { // as they are read: the progress line counts them while the piece is still being read
          counters.selected.add(1);
          counters.bytes.add(o.size());
        }
      });
      counters.listed.add(listed[0]);
      counters.filtered.add(filtered[0]);
    }
    return out.iterator();
  }

  /** The entry as an object; one of unknown size has size 0 until it is checked. */
  public static StoreObject object(ManifestEntry e, String prefix) {
    return new StoreObject(e.key(), e.key().substring(prefix.length()), Math.max(0, e.size()), e.etag(), e.lastModifiedMillis());
  }

  /** Each object looked up at the source (HEAD, {@code streams-per-task} at a time): its size, ETag and time now, or missing. */
  public static final class Check implements FlatMapFunction<Iterator<Checked>, Checked> {
    private static final long serialVersionUID = 1L;
    private final CopySettings settings;
    private final Listing.Counters counters;

    Check(CopySettings settings, Listing.Counters counters) {
      this.settings = settings;
      this.counters = counters;
    }

    @Override
    public Iterator<Checked> call(Iterator<Checked> entries) throws Exception {
      List<Checked> in = new ArrayList<>();
      entries.forEachRemaining(in::add);
      Lister lister = ExecutorContext.source(settings).lister();
      List<Object> found = Concurrently.map(in, settings.copy().streamsPerTask(), "ferry-head", c -> {
        try {
          StoreObject now = lister.stat(c.object().key());
          return now == null ? new Checked(c.object(), true) : new Checked(now, false);
        } catch (IOException | RuntimeException e) {
          return e; // after the retry policy: the listing fails as a listing does
        }
      });
      List<Checked> out = new ArrayList<>(found.size());
      for (Object f : found) {
        if (f instanceof IOException e) throw e;
        if (f instanceof RuntimeException e) throw e;
        Checked c = (Checked) f;
        if (!c.missing()) {
          counters.selected.add(1);
          counters.bytes.add(c.object().size());
        }
        out.add(c);
      }
      return out.iterator();
    }
  }
}
