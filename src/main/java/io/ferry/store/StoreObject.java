package io.ferry.store;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One object to copy, as listed at the source.
 *
 * @param key the full key in the source bucket
 * @param relativeKey the key relative to the source prefix: the path under the destination
 * @param size bytes
 * @param etag the source ETag, unquoted ("" when unknown)
 * @param lastModifiedMillis modification time, epoch milliseconds
 * @param version what else tells this version of the object from another with the same size, ETag and time: a file's
 *     device and inode ("" when the store has nothing more)
 */
public record StoreObject(String key, String relativeKey, long size, String etag, long lastModifiedMillis, String version)
    implements Serializable {
  public StoreObject {
    Objects.requireNonNull(key, "key is null");
    Objects.requireNonNull(relativeKey, "relativeKey is null");
    Objects.requireNonNull(etag, "etag is null");
    Objects.requireNonNull(version, "version is null");
    if (size < 0) throw new IllegalArgumentException("size is negative: " + size);
  }

  public StoreObject(String key, String relativeKey, long size, String etag, long lastModifiedMillis) {
    this(key, relativeKey, size, etag, lastModifiedMillis, "");
  }

  /** What {@link #version} holds for a symbolic link: this prefix and its target. */
  private static final String LINK = "link:";

  /** A symbolic link the listing found and does not copy (not followed, or to no file): no bytes, its target as its version. */
  public static StoreObject link(String key, String relativeKey, String target, long lastModifiedMillis) {
    return new StoreObject(key, relativeKey, 0, "", lastModifiedMillis, LINK + target);
  }

  public boolean isLink() {
    return version.startsWith(LINK);
  }

  /**
   * A folder as an object ({@code source.empty-directories = copy}): a directory's empty folder, or a bucket's folder
   * marker, its key ending in '/' and no bytes. A directory destination makes it a folder; a bucket, a marker.
   */
  public boolean isFolder() {
    return size == 0 && relativeKey.endsWith("/");
  }

  /** What {@link #version} holds for a symbolic link the job copies as a link: this prefix and its target. */
  private static final String SYMLINK = "symlink:";

  /**
   * A symbolic link the job copies ({@code source.symlinks = copy}): its bytes are its target's path (as rclone keeps a
   * link in a bucket, in an object of its name with {@code .rclonelink} after it), and a directory destination makes it
   * a link again.
   */
  public static StoreObject symlink(String key, String relativeKey, String target, long lastModifiedMillis) {
    return new StoreObject(key, relativeKey, target.getBytes(StandardCharsets.UTF_8).length, "", lastModifiedMillis,
        SYMLINK + target);
  }

  /**
   * A link rclone keeps in a bucket ({@code name.rclonelink} holding its target, {@code key}) that the job copies as a
   * link into a directory, at {@code relativeKey} ({@code name}): its target is its bytes, read like any object's, and
   * its listing does not tell it ({@link #linkTarget} is "").
   */
  public static StoreObject keptLink(String key, String relativeKey, long size, String etag, long lastModifiedMillis) {
    return new StoreObject(key, relativeKey, size, etag, lastModifiedMillis, SYMLINK);
  }

  public boolean isSymlink() {
    return version.startsWith(SYMLINK);
  }

  /** A link's target, as the link names it ("" for an object that is no link). */
  public String linkTarget() {
    return isLink() ? version.substring(LINK.length()) : isSymlink() ? version.substring(SYMLINK.length()) : "";
  }

  /** What {@link #version} holds for a file whose name is not UTF-8 (no key can name it). */
  private static final String UNDECODABLE = "undecodable:";

  /** A file whose name is not UTF-8: its key is its path by its bytes ({@code caf\xe9.txt}), for the row that reports it. */
  public static StoreObject undecodable(String escaped, long size, long lastModifiedMillis) {
    return new StoreObject(escaped, escaped, size, "", lastModifiedMillis, UNDECODABLE);
  }

  public boolean isUndecodable() {
    return version.equals(UNDECODABLE);
  }

  /** What {@link #version} holds for an object archived at the source: this prefix, then its storage class. */
  private static final String ARCHIVED = "archived:";

  /** ... and for one archived whose restore is under way. */
  private static final String RESTORING = "restoring:";

  /**
   * An object the source holds archived ({@link Archive}): its bytes cannot be read until it is restored, so no range
   * of it is planned; its storage class and whether a restore is under way as its version.
   */
  public static StoreObject archived(String key, String relativeKey, long size, String etag, long lastModifiedMillis, String storageClass,
      boolean restoring) {
    return new StoreObject(key, relativeKey, size, etag, lastModifiedMillis, (restoring ? RESTORING : ARCHIVED) + storageClass);
  }

  /** Archived at the source and not readable now (a restore may be under way: {@link #restoring}). */
  public boolean isArchived() {
    return version.startsWith(ARCHIVED) || restoring();
  }

  /** Archived, with a restore under way. */
  public boolean restoring() {
    return version.startsWith(RESTORING);
  }

  /** An archived object's storage class ("" for one that is not archived). */
  public String archiveClass() {
    return version.startsWith(ARCHIVED) ? version.substring(ARCHIVED.length())
        : restoring() ? version.substring(RESTORING.length()) : "";
  }

  /** What {@link #version} holds for one of the versions of a key a versioned listing found: this prefix, its age, kind and id. */
  private static final String VERSIONED = "s3v:";

  /**
   * This object as one version of its key in a bucket with versioning ({@code source.versions = all}).
   *
   * @param age 0 for the key's latest version, 1 for the one before it, and so on, as the listing found them
   * @param deleteMarker a delete marker: no bytes; the key was deleted at this time
   * @param versionId the store's id of this version ("null" for one written before versioning was enabled)
   */
  public StoreObject asVersion(int age, boolean deleteMarker, String versionId) {
    if (age < 0) throw new IllegalArgumentException("age is negative: " + age);
    return new StoreObject(key, relativeKey, deleteMarker ? 0 : size, deleteMarker ? "" : etag, lastModifiedMillis,
        VERSIONED + age + ":" + (deleteMarker ? "D" : "O") + ":" + versionId);
  }

  /** Whether this is one version of a key as a versioned listing found it ({@link #asVersion}). */
  public boolean isVersion() {
    return version.startsWith(VERSIONED);
  }

  /** The store's id of this version, for reading it ("" for an object of an unversioned listing). */
  public String versionId() {
    return isVersion() ? version.substring(version.indexOf(':', version.indexOf(':', VERSIONED.length()) + 1) + 1) : "";
  }

  /** How many versions of the key are newer than this one (0: the latest, and for an object of an unversioned listing). */
  public int age() {
    return isVersion() ? Integer.parseInt(version.substring(VERSIONED.length(), version.indexOf(':', VERSIONED.length()))) : 0;
  }

  /** A delete marker of a versioned listing. */
  public boolean isDeleteMarker() {
    return isVersion() && version.startsWith("D:", version.indexOf(':', VERSIONED.length()) + 1);
  }

  /** This object with another modification time (the one its copy was given from the source's own metadata). */
  public StoreObject withTime(long millis) {
    return new StoreObject(key, relativeKey, size, etag, millis, version);
  }

  /** This object at another key relative to the destination (a version's own name in a directory). */
  public StoreObject at(String relativeKey) {
    return new StoreObject(key, relativeKey, size, etag, lastModifiedMillis, version);
  }

  /**
   * This version's identity, as what is resumed is keyed by it: a part copied from another version of the object is
   * never taken for one of this. A key's version keeps its identity as newer ones arrive.
   */
  public String identity() {
    return size + "|" + etag + "|" + lastModifiedMillis + "|" + (isVersion() ? VERSIONED + versionId() : version);
  }
}
