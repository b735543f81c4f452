package io.ferry.store;

import io.ferry.config.SourceConfig;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.function.Consumer;

/** The job's selection of source objects: include and exclude globs on the relative key. */
public final class KeyFilter implements Serializable {
  private static final long serialVersionUID = 1L;
  private final List<String> include;
  private final List<String> exclude;
  private transient List<Glob> includeGlobs;
  private transient List<Glob> excludeGlobs;

  public KeyFilter(List<String> include, List<String> exclude) {
    this.include = List.copyOf(include);
    this.exclude = List.copyOf(exclude);
  }

  public static KeyFilter of(SourceConfig source) {
    return new KeyFilter(source.include(), source.exclude());
  }

  public boolean selects(StoreObject object) {
    if (includeGlobs == null) {
      includeGlobs = include.stream().map(Glob::compile).toList();
      excludeGlobs = exclude.stream().map(Glob::compile).toList();
    }
    return Glob.selected(object.relativeKey(), includeGlobs, excludeGlobs);
  }

  /** Lists {@code lister} and passes on the objects this filter selects; the counts say how many it left out. */
  public ListCounts list(Lister lister, Consumer<StoreObject> consumer) throws IOException {
    long[] filtered = {0};
    ListCounts raw = lister.list(o -> {
      if (selects(o)) {
        consumer.accept(o);
      } else {
        filtered[0]++;
      }
    });
    return new ListCounts(raw.listed(), raw.selected() - filtered[0], raw.folderMarkers(), filtered[0], raw.pages());
  }
}
