package io.ferry.plan;

import io.ferry.store.ByteRange;
import io.ferry.store.StoreObject;
import java.io.Serializable;
import java.util.Objects;

/**
 * One range of one object: the unit the executors copy. A small object is one range covering it whole.
 */
public record RangeTask(StoreObject object, int partNumber, int partCount, ByteRange range) implements Serializable {
  public RangeTask {
    Objects.requireNonNull(object, "object is null");
    Objects.requireNonNull(range, "range is null");
    if (partNumber < 1 || partNumber > partCount) {
      throw new IllegalArgumentException("part " + partNumber + " is outside 1.." + partCount);
    }
    if (range.offset() + range.length() > object.size()) {
      throw new IllegalArgumentException(range + " is beyond the end of " + object.key() + " (" + object.size() + " bytes)");
    }
  }

  public boolean wholeObject() {
    return partCount == 1;
  }
}
