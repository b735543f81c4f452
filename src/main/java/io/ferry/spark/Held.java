package io.ferry.spark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;

/** What a run holds on the cluster until its end: broadcasts (destroyed) and persisted datasets (unpersisted). */
public final class Held implements AutoCloseable {
  private final List<Broadcast<?>> broadcasts = Collections.synchronizedList(new ArrayList<>());
  private final List<JavaRDD<?>> persisted = Collections.synchronizedList(new ArrayList<>());

  public <T> Broadcast<T> broadcast(Broadcast<T> b) {
    broadcasts.add(b);
    return b;
  }

  public <T> JavaRDD<T> persist(JavaRDD<T> rdd) {
    persisted.add(rdd);
    return rdd.persist(StorageLevel.MEMORY_AND_DISK_SER());
  }

  @Override
  public void close() {
    synchronized (broadcasts) {
      broadcasts.forEach(Broadcast::destroy);
    }
    synchronized (persisted) {
      persisted.forEach(JavaRDD::unpersist);
    }
  }
}
