package io.ferry.store;

import java.io.IOException;

/**
 * Where objects land: the {@link Uploads} the executors write through, and what the driver asks to plan and clean
 * with: which objects can be written and which are here already, which entries are strays or staging, and the
 * removals of a cut-over pass and of strays.
 */
public interface Destination extends Uploads {
  /** Why the object cannot be written here (an unsafe path, a key too long), or null when it can. */
  String rejection(StoreObject object);

  /**
   * True for an entry of {@link #existing} that an earlier run of this job left and no ledger names (a directory's
   * temp file of an object copied whole): a rerun and {@code cleanup} remove it ({@link #removeStray}).
   */
  default boolean isStray(StoreObject existing) {
    return false;
  }

  @Retries.Once
  default void removeStray(StoreObject stray) throws IOException {}

  /**
   * True for an entry of {@link #existing} that is a copy's staging of any job (a directory's temp file or marker),
   * never an object: no job deletes another's temp files as extraneous, and none takes one for an unchanged object.
   */
  default boolean isStaging(StoreObject existing) {
    return false;
  }

  /**
   * The key, as {@link #existing} lists it, where an upload's bytes wait for completion, when they are listed there (a
   * directory's temp file); null otherwise. Such an entry of an upload the ledger names is no stray.
   */
  default String stagedAt(Upload upload) {
    return null;
  }

  /**
   * True when two keys that differ only in case name one object here (a case-insensitive filesystem: SMB, APFS, NTFS,
   * ext4 with casefold), found by a probe. Asked once, on the driver.
   */
  @Retries.Once
  default boolean foldsCase() throws IOException {
    return false;
  }

  /**
   * True when two keys that differ only in case ({@code a} and {@code b}) would be one object here: on a filesystem, where
   * the folder they first differ in folds case (a subfolder may, below a root that does not), found by a probe.
   */
  @Retries.Once
  default boolean oneFile(String a, String b) throws IOException {
    return false;
  }

  /**
   * True when every write to a key here is kept as a version of it (a bucket with versioning enabled), so that a key's
   * history can be written into it. Asked once, on the driver.
   */
  @Retries.Once
  default boolean keepsVersions() throws IOException {
    return false;
  }

  /**
   * The id of the key's latest version here (a delete marker's too), "" where it has none: what a replay records as the
   * copy of the source version it just wrote.
   */
  @Retries.Once
  default String latestVersion(StoreObject object) throws IOException {
    return "";
  }

  /**
   * Marks the key of {@code version} (a delete marker of the source's history) deleted here: a delete marker over its
   * current version, which, as every other, is kept. Only where {@link #keepsVersions}.
   */
  @Retries.Once
  default void markDeleted(StoreObject version) throws IOException {
    throw new UnsupportedOperationException("this destination keeps no versions");
  }

  /**
   * Deletes an object listed by {@link #existing} (delete-extraneous: the source no longer has it). Returns false,
   * deleting nothing, when it is not there as listed: gone already, or (where the destination can tell) changed since.
   */
  @Retries.Once
  boolean delete(StoreObject existing) throws IOException;

  /**
   * Makes {@code name} another name of the file the destination holds for {@code first} (a hard link), atomically,
   * once that file is there as {@code first} was listed ({@code source.hard-links = keep}); only a directory can.
   */
  @Retries.Once
  default void hardLink(StoreObject first, StoreObject name) throws IOException {
    throw new StoreFailure(StoreFailure.Kind.FATAL, "this destination keeps no hard links");
  }

  /**
   * Moves an object listed by {@link #existing} aside instead of deleting it (a cut-over pass with
   * {@code destination.delete-to}): to the same relative key under {@code to}, a place outside this destination of
   * its own kind (a directory; a key prefix of the same bucket). Returns false, moving nothing, when it is not there
   * as listed, as {@link #delete}.
   */
  @Retries.Once
  boolean moveAside(StoreObject existing, String to) throws IOException;

  /** What is already here, keyed as the source's relative keys: for skipping unchanged objects. */
  Lister existing();

  /** True when {@code existing} (listed here) already holds {@code source} unchanged, so it need not be copied. */
  boolean unchanged(StoreObject source, StoreObject existing);
}
