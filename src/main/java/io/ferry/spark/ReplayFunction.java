package io.ferry.spark;

import io.ferry.plan.Decision;
import io.ferry.plan.Versions;
import io.ferry.store.Destination;
import io.ferry.store.StoreObject;
import io.ferry.store.listing.ObjectFilter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import scala.Tuple2;

/** Each key's versions replayed against the destination's: decisions for the plan, and the versions to write in order. */
public final class ReplayFunction implements FlatMapFunction<
    Iterator<Tuple2<String, Tuple2<Iterable<StoreObject>, Iterable<StoreObject>>>>, Tuple2<List<Decision>, List<StoreObject>>> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;
  /** What the ledger knows of earlier replays, by key. */
  private final Broadcast<Map<String, Versions.Known>> known;

  public ReplayFunction(CopySettings settings, Broadcast<Map<String, Versions.Known>> known) {
    this.settings = settings;
    this.known = known;
  }

  @Override
  public Iterator<Tuple2<List<Decision>, List<StoreObject>>> call(
      Iterator<Tuple2<String, Tuple2<Iterable<StoreObject>, Iterable<StoreObject>>>> keys) {
    Destination destination = ExecutorContext.destination(settings);
    ObjectFilter filter = new ObjectFilter(settings.source().selection());
    List<Tuple2<List<Decision>, List<StoreObject>>> out = new ArrayList<>();
    keys.forEachRemaining(t -> {
      List<StoreObject> source = new ArrayList<>();
      List<Decision> decisions = new ArrayList<>();
      for (StoreObject o : t._2()._1()) {
        if (!filter.selectsKey(o)) continue;
        if (o.isDeleteMarker() || filter.inRanges(o)) {
          source.add(o);
        } else {
          decisions.add(Decision.of(Decision.Kind.FILTERED, o));
        }
      }
      if (source.isEmpty()) {
        out.add(new Tuple2<>(decisions, List.of()));
        return;
      }
      List<StoreObject> existing = new ArrayList<>();
      t._2()._2().forEach(existing::add);
      String rejected = destination.rejection(source.get(0));
      Versions.Replay replay = rejected != null ? null : Versions.replay(source, existing, known.value().getOrDefault(t._1(),
          Versions.Known.NONE));
      String why = rejected != null ? rejected : replay.conflict();
      if (why != null) {
        decisions.add(new Decision(Decision.Kind.REJECTED, source.stream().filter(o -> o.age() == 0).findFirst()
            .orElse(source.get(0)), why));
        out.add(new Tuple2<>(decisions, List.of()));
        return;
      }
      for (int i = 0; i < replay.held(); i++) decisions.add(Decision.of(Decision.Kind.UNCHANGED, source.get(0)));
      replay.toWrite().forEach(o -> decisions.add(Decision.of(Decision.Kind.COPY, o)));
      out.add(new Tuple2<>(decisions, replay.toWrite()));
    });
    return out.iterator();
  }
}
