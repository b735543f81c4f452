package io.ferry.report;

import java.util.Map;
import java.util.TreeMap;

/** Counts by name (requests by method, objects by how they were checked). */
final class Tally implements Mergeable<Tally> {
  private static final long serialVersionUID = 1L;
  private final TreeMap<String, Long> counts = new TreeMap<>();

  void add(String name, long n) {
    counts.merge(name, n, Long::sum);
  }

  @Override
  public void merge(Tally other) {
    other.counts.forEach(this::add);
  }

  Map<String, Long> counts() {
    return counts;
  }
}
