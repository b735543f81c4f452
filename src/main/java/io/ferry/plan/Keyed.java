package io.ferry.plan;

import io.ferry.store.KeyOrder;
import io.ferry.store.StoreObject;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * What the two listings hold at one join key, merged from its sides ({@link Triage#sides}): the source's object, the
 * destination's, whether source keys lie under it as a folder ("a" beside "a/b"), and, on a destination that folds
 * case, the other source objects whose keys fold to the same one ({@code colliding}).
 *
 * @param source null when only the destination holds the key (or it is a folder only)
 * @param existing null when the destination does not hold it
 */
public record Keyed(StoreObject source, StoreObject existing, boolean folder, List<StoreObject> colliding) implements Serializable {
  public Keyed {
    colliding = List.copyOf(colliding);
  }

  public static Keyed source(StoreObject source) {
    return new Keyed(source, null, false, List.of());
  }

  public static Keyed existing(StoreObject existing) {
    return new Keyed(null, existing, false, List.of());
  }

  public static Keyed folderMark() {
    return new Keyed(null, null, true, List.of());
  }

  /** Associative and commutative, as reduceByKey needs: the sources are a set, the least key first. */
  public Keyed merge(Keyed o) {
    TreeMap<String, StoreObject> sources = new TreeMap<>(KeyOrder.COMPARATOR);
    for (Keyed k : List.of(this, o)) {
      if (k.source != null) sources.put(k.source.key(), k.source);
      k.colliding.forEach(c -> sources.put(c.key(), c));
    }
    List<StoreObject> all = new ArrayList<>(sources.values());
    return new Keyed(all.isEmpty() ? null : all.get(0), existing != null ? existing : o.existing, folder || o.folder,
        all.size() <= 1 ? List.of() : all.subList(1, all.size()));
  }
}
