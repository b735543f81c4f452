package io.ferry.report;

import java.io.Serializable;

/** A statistic a partition gathers and the driver adds up: each merges another of its kind into itself. */
interface Mergeable<T extends Mergeable<T>> extends Serializable {
  void merge(T other);

  /** {@code other}, which must be of this one's kind, merged into this one (the statistics of a {@link RunStats}, in order). */
  @SuppressWarnings("unchecked")
  default void mergeAny(Mergeable<?> other) {
    merge((T) other);
  }
}
