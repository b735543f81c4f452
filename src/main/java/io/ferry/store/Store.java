package io.ferry.store;

/** One configured store (a bucket and prefix, a directory) as the pipeline uses it. */
public interface Store {
  /** Its objects under the prefix (or directory). */
  Lister lister();

  /** Reads byte ranges of its objects. */
  RangeReader reader();

  /** Writes objects into it. */
  Destination destination();
}
