package io.ferry.spark;

import io.ferry.store.KeyOrder;
import org.apache.spark.Partitioner;

/**
 * The join's partitions by each key's case folded: keys that differ only in case meet in one partition, where triage
 * finds those a destination's folder would make one file ({@code Destination.oneFile}). The join itself stays by the
 * exact key.
 */
public final class FoldedKeys extends Partitioner {
  private static final long serialVersionUID = 1L;
  private final int partitions;

  public FoldedKeys(int partitions) {
    this.partitions = partitions;
  }

  @Override
  public int numPartitions() {
    return partitions;
  }

  @Override
  public int getPartition(Object key) {
    return Math.floorMod(KeyOrder.joinKey((String) key, true).hashCode(), partitions);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FoldedKeys f && f.partitions == partitions;
  }

  @Override
  public int hashCode() {
    return partitions;
  }
}
