package io.ferry.store;

import java.io.Serializable;
import java.util.Objects;

/**
 * An object being written at a destination, as any executor can name it: the object, and the id the destination gave
 * it when it was opened for a write in parts (a multipart upload id); "" for an object written in one part, which its
 * own write opens.
 */
public record Upload(StoreObject object, String id) implements Serializable {
  public Upload {
    Objects.requireNonNull(object, "object is null");
    Objects.requireNonNull(id, "id is null");
  }

  /** An object written whole, in one part. */
  public static Upload whole(StoreObject object) {
    return new Upload(object, "");
  }

  public boolean inParts() {
    return !id.isEmpty();
  }
}
