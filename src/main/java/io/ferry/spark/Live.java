package io.ferry.spark;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorMetricsUpdate;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple4;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What the driver has seen of some accumulators while tasks still run: finished tasks' values plus each running
 * task's value as of its executor's last heartbeat (heartbeats carry the accumulators of running tasks; an
 * accumulator's own value on the driver changes only when a task ends). Counted here only, never added to the
 * accumulators' own values, so nothing is counted twice.
 */
public final class Live extends SparkListener implements AutoCloseable {
  private final JavaSparkContext jsc;
  private final Set<Long> ids = new HashSet<>();
  private final Map<Long, Long> finished = new ConcurrentHashMap<>();
  private final Map<Long, Map<Long, Long>> running = new ConcurrentHashMap<>();

  private Live(JavaSparkContext jsc, List<LongAccumulator> accumulators) {
    this.jsc = jsc;
    for (LongAccumulator a : accumulators) ids.add(a.id());
  }

  public static Live watch(JavaSparkContext jsc, List<LongAccumulator> accumulators) {
    Live live = new Live(jsc, accumulators);
    jsc.sc().addSparkListener(live);
    return live;
  }

  /**
   * At least the accumulator's own value: listener events arrive later than the driver merges a finished task, so
   * once an action has returned this is its exact total.
   */
  public long value(LongAccumulator accumulator) {
    long id = accumulator.id();
    long total = finished.getOrDefault(id, 0L);
    for (Map<Long, Long> task : running.values()) total += task.getOrDefault(id, 0L);
    return Math.max(total, accumulator.value());
  }

  @Override
  public void onExecutorMetricsUpdate(SparkListenerExecutorMetricsUpdate update) {
    for (Tuple4<Object, Object, Object, Seq<AccumulableInfo>> task : CollectionConverters.asJava(update.accumUpdates())) {
      long taskId = (Long) task._1();
      for (AccumulableInfo info : CollectionConverters.asJava(task._4())) {
        if (ids.contains(info.id()) && info.update().isDefined()) {
          running.computeIfAbsent(taskId, t -> new ConcurrentHashMap<>()).put(info.id(), ((Number) info.update().get()).longValue());
        }
      }
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd end) {
    running.remove(end.taskInfo().taskId());
    if (!end.taskInfo().successful()) return;
    for (AccumulableInfo info : CollectionConverters.asJava(end.taskInfo().accumulables())) {
      if (ids.contains(info.id()) && info.update().isDefined()) finished.merge(info.id(), ((Number) info.update().get()).longValue(),
          Long::sum);
    }
  }

  @Override
  public void close() {
    jsc.sc().removeSparkListener(this);
  }
}
