package io.ferry.config;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/** What to copy: the objects of a store, selected by globs on their keys relative to the prefix (or directory). */
public record SourceConfig(StoreConfig store, List<String> include, List<String> exclude) implements Serializable {
  public SourceConfig {
    Objects.requireNonNull(store, "store is null");
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
  }

  /** Every object of {@code store}. */
  public static SourceConfig all(StoreConfig store) {
    return new SourceConfig(store, List.of("**"), List.of());
  }

  public String describe() {
    return store.describe();
  }
}
