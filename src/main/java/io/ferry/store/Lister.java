package io.ferry.store;

import java.io.IOException;
import java.util.function.Consumer;

/**
 * Lists the objects of a store under its prefix (or directory), in key order, each keyed also relative to it. Objects
 * are handed on as they arrive, so no listing is held whole beyond what the consumer keeps.
 */
public interface Lister {
  ListCounts list(Consumer<StoreObject> consumer) throws IOException;
}
