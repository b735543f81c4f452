package io.ferry.store;

import java.io.IOException;

/** What a destination already holds, as the plan and cleanup see it: which objects can be written, and what is here. */
public interface ExistingObjects {
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

  /** What is already here, keyed as the source's relative keys: for skipping unchanged objects. */
  Lister existing();

  /** True when {@code existing} (listed here) already holds {@code source} unchanged, so it need not be copied. */
  boolean unchanged(StoreObject source, StoreObject existing);
}
