package io.ferry.config;

import java.util.Objects;

/**
 * Keys under {@code prefix} in a bucket of an S3-compatible service.
 *
 * @param writes how objects are written here when the bucket is a destination ({@link ObjectWrites#NONE} for a source)
 * @param versions every version of each key is listed, delete markers too ({@code source.versions = all}), not only the current
 */
public record BucketConfig(S3EndpointConfig endpoint, String bucket, String prefix, ObjectWrites writes, boolean versions)
    implements StoreConfig {
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
    this(endpoint, bucket, prefix, writes, false);
  }

  /** The same bucket, written with {@code writes}. */
  public BucketConfig withWrites(ObjectWrites how) {
    return new BucketConfig(endpoint, bucket, prefix, how, versions);
  }

  /** The same bucket, listed with every version of each key, or with its current versions only. */
  public BucketConfig withVersions(boolean all) {
    return new BucketConfig(endpoint, bucket, prefix, writes, all);
  }

  @Override
  public String describe() {
    return "s3://" + bucket + "/" + prefix + " at " + endpoint.describe();
  }
}
