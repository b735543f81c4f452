package io.ferry.config;

import java.util.Objects;

/**
 * Keys under {@code prefix} in a bucket of an S3-compatible service.
 *
 * @param writes how objects are written here when the bucket is a destination ({@link ObjectWrites#NONE} for a source)
 * @param versions every version of each key is listed, delete markers too ({@code source.versions = all}), not only the current
 * @param folders folder markers (empty objects whose keys end in '/') are objects of the job's ({@code
 *     source.empty-directories = copy}), not left out
 * @param links {@code name.rclonelink} objects are the links rclone keeps, copied as links into a directory ({@code
 *     source.symlinks = copy})
 */
public record BucketConfig(S3EndpointConfig endpoint, String bucket, String prefix, ObjectWrites writes, boolean versions,
    boolean folders, boolean links) implements StoreConfig {
  public BucketConfig {
    Objects.requireNonNull(endpoint, "endpoint is null");
    Objects.requireNonNull(bucket, "bucket is null");
    Objects.requireNonNull(prefix, "prefix is null");
    Objects.requireNonNull(writes, "writes is null");
  }

  public BucketConfig(S3EndpointConfig endpoint, String bucket, String prefix) {
    this(endpoint, bucket, prefix, ObjectWrites.NONE);
  }

  public BucketConfig(S3EndpointConfig endpoint, String bucket, String prefix, ObjectWrites writes) {
    this(endpoint, bucket, prefix, writes, false, false, false);
  }

  public BucketConfig(S3EndpointConfig endpoint, String bucket, String prefix, ObjectWrites writes, boolean versions) {
    this(endpoint, bucket, prefix, writes, versions, false, false);
  }

  /** The same bucket, its folder markers objects of the job's or not. */
  public BucketConfig withFolders(boolean kept) {
    return new BucketConfig(endpoint, bucket, prefix, writes, versions, kept, links);
  }

  /** The same bucket, written with {@code writes}. */
  public BucketConfig withWrites(ObjectWrites how) {
    return new BucketConfig(endpoint, bucket, prefix, how, versions, folders, links);
  }

  /** The same bucket, listed with every version of each key, or with its current versions only. */
  public BucketConfig withVersions(boolean all) {
    return new BucketConfig(endpoint, bucket, prefix, writes, all, folders, links);
  }

  /** The same bucket, its {@code name.rclonelink} objects listed as links or as objects. */
  public BucketConfig withLinks(boolean kept) {
    return new BucketConfig(endpoint, bucket, prefix, writes, versions, folders, kept);
  }

  @Override
  public String describe() {
    return "s3://" + bucket + "/" + prefix + " at " + endpoint.describe();
  }
}
