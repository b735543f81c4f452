package io.ferry.store;

import io.ferry.config.Selection;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.function.Consumer;

/** The job's selection of source objects ({@link Selection}): globs on the relative key, a size and a time range. */
public final class ObjectFilter implements Serializable {
  private static final long serialVersionUID = 1L;
  private final Selection selection;
  private transient List<Glob> includeGlobs;
  private transient List<Glob> excludeGlobs;

  public ObjectFilter(Selection selection) {
    this.selection = selection;
  }

  public boolean selects(StoreObject object) {
    return selectsKey(object) && inRanges(object);
  }

  /** Whether the globs select the relative key: a destination's object outside them is none of the job's business. */
  public boolean selectsKey(StoreObject object) {
    if (includeGlobs == null) {
      includeGlobs = selection.include().stream().map(Glob::compile).toList();
      excludeGlobs = selection.exclude().stream().map(Glob::compile).toList();
    }
    return Glob.selected(object.relativeKey(), includeGlobs, excludeGlobs);
  }

  /** Whether the size and modification time are in the selected ranges. */
  public boolean inRanges(StoreObject object) {
    return object.size() >= selection.minSize() && object.size() <= selection.maxSize()
        && object.lastModifiedMillis() >= selection.modifiedAfterMillis() && object.lastModifiedMillis() <= selection.modifiedBeforeMillis();
  }

  /**
   * Lists one shard and passes on the objects whose keys the globs select (their sizes and times are checked later,
   * where an object left out by them still counts as present at the source); the counts say how many it left out.
   */
  public ListCounts list(Lister lister, Shard shard, Consumer<StoreObject> consumer) throws IOException {
    long[] filtered = {0};
    ListCounts raw = lister.list(shard, o -> {
      if (selectsKey(o)) {
        consumer.accept(o);
      } else {
        filtered[0]++;
      }
    });
    return new ListCounts(raw.listed(), raw.selected() - filtered[0], raw.folderMarkers(), filtered[0], raw.pages());
  }
}
