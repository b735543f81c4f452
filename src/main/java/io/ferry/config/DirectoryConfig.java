package io.ferry.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Files under a directory: a local disk, an NFS mount or a mounted block volume. The path is absolute, as the driver
 * resolved it, so executors never depend on their working directory.
 */
public record DirectoryConfig(String path, Symlinks symlinks, boolean folders, boolean hardLinks) implements StoreConfig {
  /** What a listing of the directory does with a symbolic link (source.symlinks). */
  public enum Symlinks {
    /** Leaves it, and reports it: a row of the objects dataset and a count; not a failure. */
    REPORT,
    /** Copies the file it points to, at the link's path; a link to a folder, or to nothing, is reported. */
    FOLLOW,
    /**
     * Copies every link as a link: at a directory destination a link with the same target (whose listing then lists its
     * links, to compare them); at a bucket, {@link #COPY_AS_FILES}.
     */
    COPY,
    /**
     * {@code copy} into a bucket: each link an object at its path with {@code .rclonelink} after it, holding its target,
     * as rclone's {@code --links} keeps links (so rclone makes them links again).
     */
    COPY_AS_FILES;

    /** The suffix of an object that keeps a link in a bucket (rclone's). */
    public static final String LINK_SUFFIX = ".rclonelink";
  }

  public DirectoryConfig {
    Objects.requireNonNull(path, "path is null");
    Objects.requireNonNull(symlinks, "symlinks is null");
    if (!Path.of(path).isAbsolute()) throw new IllegalArgumentException("path must be absolute: " + path);
  }

  public DirectoryConfig(String path) {
    this(path, Symlinks.REPORT, false, false);
  }

  public DirectoryConfig(String path, Symlinks symlinks) {
    this(path, symlinks, false, false);
  }

  /** The same directory, its files' other names (hard links) kept as such into a directory ({@code source.hard-links = keep}). */
  public DirectoryConfig withHardLinks(boolean kept) {
    return new DirectoryConfig(path, symlinks, folders, kept);
  }

  /**
   * The same directory, its folders objects of the job's ({@code source.empty-directories = copy}): a source's empty
   * ones, each as its path with '/' after it; all of a destination's, so a rerun finds those it made.
   */
  public DirectoryConfig withFolders(boolean kept) {
    return new DirectoryConfig(path, symlinks, kept, hardLinks);
  }

  /** A directory config for {@code path}, made absolute against the working directory. */
  public static DirectoryConfig of(String path) {
    return new DirectoryConfig(Path.of(path).toAbsolutePath().normalize().toString());
  }

  public DirectoryConfig withSymlinks(Symlinks how) {
    return new DirectoryConfig(path, how, folders, hardLinks);
  }

  @Override
  public String describe() {
    return path;
  }
}
