package io.ferry.config;

import java.io.Serializable;
import java.util.Objects;

/** Where objects land. Today: a filesystem path (local disk, NFS, a mounted block volume). */
public record DestinationConfig(String path) implements Serializable {
  public DestinationConfig {
    Objects.requireNonNull(path, "path is null");
  }

  public String describe() {
    return path;
  }
}
