package io.ferry.commit;

import io.ferry.config.CutOver;
import io.ferry.store.Destination;
import io.ferry.store.Failures;
import io.ferry.store.Lister;
import io.ferry.store.Retrier;
import io.ferry.store.StoreObject;

/**
 * The cut-over pass's last check and its action, for one object the destination holds and the source's listing
 * lacked: the source is asked for it right before anything happens (a listing that missed it, a manifest that does
 * not name it, a file that reappeared), and only an object the source does not hold is deleted, or moved aside. Free
 * of Spark.
 */
public final class Deleter {
  private final Lister source;
  private final Destination destination;
  private final Retrier retrier;
  private final CutOver cutOver;

  /** @param source the source's lister, asked for each relative key ({@link Lister#find}) */
  public Deleter(Lister source, Destination destination, Retrier retrier, CutOver cutOver) {
    this.source = source;
    this.destination = destination;
    this.retrier = retrier;
    this.cutOver = cutOver;
  }

  public Deletion remove(StoreObject extraneous) {
    String location = destination.location(extraneous);
    StoreObject there;
    try {
      there = retrier.call(() -> source.find(extraneous.relativeKey()));
    } catch (Exception e) {
      return new Deletion(extraneous, location, Deletion.Status.KEPT, "the source could not be asked for it: " + Failures.describe(e));
    }
    if (there != null) return new Deletion(extraneous, location, Deletion.Status.KEPT, "the source holds it");
    try {
      if (cutOver.moves()) {
        retrier.run(() -> destination.moveAside(extraneous, cutOver.moveTo()));
        return new Deletion(extraneous, location, Deletion.Status.MOVED, cutOver.moveTo());
      }
      retrier.run(() -> destination.delete(extraneous));
      return new Deletion(extraneous, location, Deletion.Status.DELETED, "");
    } catch (Exception e) {
      return new Deletion(extraneous, location, Deletion.Status.FAILED, Failures.describe(e));
    }
  }
}
