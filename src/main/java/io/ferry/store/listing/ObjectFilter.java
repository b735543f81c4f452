package io.ferry.store.listing;

import io.ferry.store.ListCounts;
import io.ferry.store.Lister;
import io.ferry.store.Shard;
import io.ferry.store.StoreObject;
import io.ferry.config.Selection;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.function.Consumer;

/**
 * The job's selection ({@link Selection}): folders and globs on the relative key, a size and a time range. The same
 * filter decides what the source lists and which of the destination's objects a cut-over pass may delete.
 */
public final class ObjectFilter implements Serializable {
  private static final long serialVersionUID = 1L;
  private final Selection selection;
  /** Compiled once per instance; one field, so the listing threads sharing a filter see both lists or neither. */
  private transient volatile Globs globs;

  private record Globs(List<Glob> include, List<Glob> exclude) {}

  public ObjectFilter(Selection selection) {
    this.selection = selection;
  }

  public boolean selects(StoreObject object) {
    return selectsKey(object) && inRanges(object);
  }

  /**
   * Whether the folders and globs select the relative key: a destination's object outside them is none of the job's
   * business.
   */
  public boolean selectsKey(StoreObject object) {
    if (!selection.underPrefixes(object.relativeKey())) return false;
    Globs g = globs;
    if (g == null) {
      g = new Globs(selection.include().stream().map(Glob::compile).toList(), selection.exclude().stream().map(Glob::compile).toList());
      globs = g;
    }
    return Glob.selected(object.relativeKey(), g.include(), g.exclude());
  }

  /** Whether the size and modification time are in the selected ranges. */
  public boolean inRanges(StoreObject object) {
    return object.size() >= selection.minSize() && object.size() <= selection.maxSize()
        && object.lastModifiedMillis() >= selection.modifiedAfterMillis()
        && object.lastModifiedMillis() <= selection.modifiedBeforeMillis();
  }

  /**
   * Lists one shard and passes on the objects whose keys the globs select (their sizes and times are checked later,
   * where an object left out by them still counts as present at the source); the counts say how many it left out.
   */
  public ListCounts list(Lister lister, Shard shard, Consumer<StoreObject> consumer) throws IOException {
    return listSome(lister, shard, 0, consumer).counts();
  }

  /** As {@link #list}, for about {@code pages} pages ({@link Lister#listSome}). */
  public Lister.Listed listSome(Lister lister, Shard shard, int pages, Consumer<StoreObject> consumer) throws IOException {
    return listSome(lister, shard, pages, KeySpace.PAGE, consumer);
  }

  /** As {@link #listSome(Lister, Shard, int, Consumer)}, asking {@code pageKeys} keys a page. */
  public Lister.Listed listSome(Lister lister, Shard shard, int pages, int pageKeys, Consumer<StoreObject> consumer)
      throws IOException {
    long[] filtered = {0};
    Lister.Listed raw = lister.listSome(shard, pages, pageKeys, o -> {
      if (selectsKey(o)) {
        consumer.accept(o);
      } else {
        filtered[0]++;
      }
    });
    ListCounts c = raw.counts();
    return new Lister.Listed(new ListCounts(c.listed(), c.selected() - filtered[0], c.folderMarkers(), filtered[0], c.pages()), raw.rest());
  }
}
