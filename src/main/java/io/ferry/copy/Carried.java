package io.ferry.copy;

import io.ferry.store.ObjectMetadata;
import io.ferry.store.RangeReader;
import io.ferry.store.StoreObject;
import io.ferry.store.Writing;
import java.io.IOException;
import java.io.InputStream;

/** What a write carries besides the bytes, as far as its destination keeps it: metadata, tags, the ACL's grants. */
final class Carried {
  private Carried() {}

  /**
   * Read from the answer of {@code opened} (the object's GET), or with a request of its own where there is none (an
   * upload opened before any range is read, an empty object).
   */
  static ObjectMetadata read(RangeReader source, Writing destination, StoreObject object, InputStream opened) throws IOException {
    ObjectMetadata read = opened == null ? source.metadata(object, destination.keepsTags())
        : source.metadataOf(opened, object, destination.keepsTags());
    return destination.keepsAcl() ? read.withGrants(source.grants(object)) : read;
  }
}
