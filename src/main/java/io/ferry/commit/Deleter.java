package io.ferry.commit;

import io.ferry.store.Destination;
import io.ferry.store.Lister;
import io.ferry.store.StoreObject;
import io.ferry.store.retry.Failures;
import io.ferry.store.retry.Retrier;
import java.io.IOException;

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
  private final String moveTo;

  /**
   * @param source the source's lister, asked for each relative key ({@link Lister#find})
   * @param moveTo where objects are moved aside instead ({@link Destination#moveAside}), "" to delete them
   */
  public Deleter(Lister source, Destination destination, Retrier retrier, String moveTo) {
    this.source = source;
    this.destination = destination;
    this.retrier = retrier;
    this.moveTo = moveTo;
  }

  public Deletion remove(StoreObject extraneous) {
    String location = destination.location(extraneous);
    StoreObject there;
    try {
      there = source.find(extraneous.relativeKey()); // a listing's request: retried inside
    } catch (Exception e) {
      return new Deletion(extraneous, location, Deletion.Status.KEPT, "the source could not be asked for it: " + Failures.describe(e));
    }
    if (there != null) return new Deletion(extraneous, location, Deletion.Status.KEPT, "the source holds it");
    try {
      boolean moved = !moveTo.isEmpty();
      if (!removeAsListed(extraneous, moved)) return new Deletion(extraneous, location, Deletion.Status.KEPT,
          "not there as listed: gone, or changed since");
      return new Deletion(extraneous, location, moved ? Deletion.Status.MOVED : Deletion.Status.DELETED, moved ? moveTo : "");
    } catch (Exception e) {
      return new Deletion(extraneous, location, Deletion.Status.FAILED, Failures.describe(e));
    }
  }

  private boolean removeAsListed(StoreObject extraneous, boolean moved) throws IOException {
    return retrier.call(() -> moved ? destination.moveAside(extraneous, moveTo) : destination.delete(extraneous));
  }
}
