package io.ferry.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Files under a directory: a local disk, an NFS mount or a mounted block volume. The path is absolute, as the driver
 * resolved it, so executors never depend on their working directory.
 */
public record DirectoryConfig(String path, Symlinks symlinks) implements StoreConfig {
  /** What a listing of the directory does with a symbolic link (source.symlinks). */
  public enum Symlinks {
    /** Leaves it, and reports it: a row of the objects dataset and a count; not a failure. */
    REPORT,
    /** Copies the file it points to, at the link's path; a link to a folder, or to nothing, is reported. */
    FOLLOW
  }

  public DirectoryConfig {
    Objects.requireNonNull(path, "path is null");
    Objects.requireNonNull(symlinks, "symlinks is null");
    if (!Path.of(path).isAbsolute()) throw new IllegalArgumentException("path must be absolute: " + path);
  }

  public DirectoryConfig(String path) {
    this(path, Symlinks.REPORT);
  }

  /** A directory config for {@code path}, made absolute against the working directory. */
  public static DirectoryConfig of(String path) {
    return new DirectoryConfig(Path.of(path).toAbsolutePath().normalize().toString());
  }

  public DirectoryConfig withSymlinks(Symlinks how) {
    return new DirectoryConfig(path, how);
  }

  @Override
  public String describe() {
    return path;
  }
}
