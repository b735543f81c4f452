package io.ferry.report;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The first {@code n} of everything added, by an order: the same ones whatever order they came in. It trims once it
 * holds {@code slack} times {@code n}, so that adding costs a sort only now and then.
 */
final class Top<T> implements Mergeable<Top<T>> {
  private static final long serialVersionUID = 1L;
  private final int n;
  private final int slack;
  private final SerializableComparator<T> order;
  private final List<T> items = new ArrayList<>();

  /** An order that travels with the statistics (from the executors to the driver). */
  interface SerializableComparator<T> extends Comparator<T>, Serializable {}

  Top(int n, int slack, SerializableComparator<T> order) {
    this.n = n;
    this.slack = slack;
    this.order = order;
  }

  void add(T item) {
    items.add(item);
    if (items.size() > (long) n * slack) trim();
  }

  @Override
  public void merge(Top<T> other) {
    items.addAll(other.items);
    trim();
  }

  /** The first {@code n}, in order. */
  List<T> items() {
    trim();
    return items;
  }

  private void trim() {
    items.sort(order);
    if (items.size() > n) items.subList(n, items.size()).clear();
  }
}
