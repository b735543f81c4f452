package io.ferry.report;

import java.util.Map;
import java.util.TreeMap;

/** Each executor's share of a run, by executor id. */
final class ExecutorsStats implements Mergeable<ExecutorsStats> {
  private static final long serialVersionUID = 1L;
  private final Buckets timeline;
  private final TreeMap<String, ExecutorStats> byId = new TreeMap<>();

  /** @param timeline the run's timeline, whose buckets each executor's own share keeps */
  ExecutorsStats(Buckets timeline) {
    this.timeline = timeline;
  }

  ExecutorStats of(String executorId) {
    return byId.computeIfAbsent(executorId, k -> new ExecutorStats(timeline.like()));
  }

  @Override
  public void merge(ExecutorsStats other) {
    other.byId.forEach((id, e) -> of(id).merge(e));
  }

  Map<String, ExecutorStats> all() {
    return byId;
  }
}
