package io.ferry.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Files under a directory: a local disk, an NFS mount or a mounted block volume. The path is absolute, as the driver
 * resolved it, so executors never depend on their working directory.
 */
public record DirectoryConfig(String path, Symlinks symlinks, boolean folders, boolean hardLinks, Writes writes)
    implements StoreConfig {
  /** How a destination's files take their bytes and give them back to the checks ({@code destination.direct-io}). */
  public enum Writes {
    /** Through the page cache: positioned writes, and reads back from memory. */
    PAGE_CACHE,
    /** Around it (O_DIRECT): whole aligned blocks, an unaligned head or tail through the page cache; reads back from the disk. */
    DIRECT,
    /** Direct I/O was asked for, and the filesystem refused it (tmpfs does): through the page cache. */
    DIRECT_REFUSED
  }

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
    Objects.requireNonNull(writes, "writes is null");
    if (!Path.of(path).isAbsolute()) throw new IllegalArgumentException("path must be absolute: " + path);
  }

  public DirectoryConfig(String path) {
    this(path, Symlinks.REPORT, false, false, Writes.PAGE_CACHE);
  }

  public DirectoryConfig(String path, Symlinks symlinks) {
    this(path, symlinks, false, false, Writes.PAGE_CACHE);
  }

  /** The same directory, its files' other names (hard links) kept as such into a directory ({@code source.hard-links = keep}). */
  public DirectoryConfig withHardLinks(boolean kept) {
    return new DirectoryConfig(path, symlinks, folders, kept, writes);
  }

  /**
   * The same directory, its folders objects of the job's ({@code source.empty-directories = copy}): a source's empty
   * ones, each as its path with '/' after it; all of a destination's, so a rerun finds those it made.
   */
  public DirectoryConfig withFolders(boolean kept) {
    return new DirectoryConfig(path, symlinks, kept, hardLinks, writes);
  }

  /** A directory config for {@code path}, made absolute against the working directory. */
  public static DirectoryConfig of(String path) {
    return new DirectoryConfig(Path.of(path).toAbsolutePath().normalize().toString());
  }

  public DirectoryConfig withSymlinks(Symlinks how) {
    return new DirectoryConfig(path, how, folders, hardLinks, writes);
  }

  /** The same directory, its files written so. */
  public DirectoryConfig withWrites(Writes how) {
    return new DirectoryConfig(path, symlinks, folders, hardLinks, how);
  }

  @Override
  public String describe() {
    // only a refusal is told: the driver probed the filesystem, and the run's summary says what it fell back to
    return writes == Writes.DIRECT_REFUSED ? path + " (page cache: its filesystem refuses direct I/O)" : path;
  }
}
