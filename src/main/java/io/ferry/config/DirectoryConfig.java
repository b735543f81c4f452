package io.ferry.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Files under a directory: a local disk, an NFS mount or a mounted block volume. The path is absolute, as the driver
 * resolved it, so executors never depend on their working directory.
 */
public record DirectoryConfig(String path) implements StoreConfig {
  public DirectoryConfig {
    Objects.requireNonNull(path, "path is null");
    if (!Path.of(path).isAbsolute()) throw new IllegalArgumentException("path must be absolute: " + path);
  }

  /** A directory config for {@code path}, made absolute against the working directory. */
  public static DirectoryConfig of(String path) {
    return new DirectoryConfig(Path.of(path).toAbsolutePath().normalize().toString());
  }

  @Override
  public String describe() {
    return path;
  }
}
