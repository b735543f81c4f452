package io.ferry.store;

import java.io.IOException;

/** A destination whose keys keep every version written (a bucket that can have versioning): a replay's histories land there. */
public interface VersionedWrites {
  /**
   * True when every write to a key here is kept as a version of it (a bucket with versioning enabled), so that a key's
   * history can be written into it. Asked once, on the driver.
   */
  @Retries.Once
  boolean keepsVersions() throws IOException;

  /**
   * The id of the key's latest version here (a delete marker's too), "" where it has none: what a replay records as the
   * copy of the source version it just wrote.
   */
  @Retries.Once
  String latestVersion(StoreObject object) throws IOException;

  /**
   * Marks the key of {@code version} (a delete marker of the source's history) deleted here: a delete marker over its
   * current version, which, as every other, is kept. Only where {@link #keepsVersions}.
   */
  @Retries.Once
  void markDeleted(StoreObject version) throws IOException;

}
