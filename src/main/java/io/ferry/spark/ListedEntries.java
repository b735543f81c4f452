package io.ferry.spark;

import io.ferry.store.Destination;
import io.ferry.store.StoreObject;
import io.ferry.store.listing.ObjectFilter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;
import org.apache.spark.api.java.function.FlatMapFunction;

/** The entries of a listing of one kind (objects, strays, the selected), its predicate built once per partition. */
public final class ListedEntries implements FlatMapFunction<Iterator<StoreObject>, StoreObject> {
  private static final long serialVersionUID = 1L;

  public enum Which {
    /** The destination's objects: no staging of any job (temp files, markers). */
    OBJECTS,
    /** The destination's entries that are this job's strays. */
    STRAYS,
    /** The source's objects in the selected size and time ranges. */
    SOURCE_SELECTED,
    /** The destination's objects whose keys the selection takes. */
    DESTINATION_SELECTED
  }

  private final CopySettings settings;
  private final Which which;

  public ListedEntries(CopySettings settings, Which which) {
    this.settings = settings;
    this.which = which;
  }

  @Override
  public Iterator<StoreObject> call(Iterator<StoreObject> objects) {
    Destination destination = which == Which.SOURCE_SELECTED ? null : ExecutorContext.destination(settings);
    ObjectFilter filter = new ObjectFilter(settings.source().selection());
    Predicate<StoreObject> kept = switch (which) {
      case OBJECTS -> o -> !destination.isStaging(o);
      case STRAYS -> destination::isStray;
      case SOURCE_SELECTED -> o -> !o.isLink() && filter.inRanges(o); // a link left at the source is no object to compare
      case DESTINATION_SELECTED -> o -> !destination.isStaging(o) && filter.selectsKey(o);
    };
    List<StoreObject> out = new ArrayList<>();
    objects.forEachRemaining(o -> {
      if (kept.test(o)) out.add(o);
    });
    return out.iterator();
  }
}
