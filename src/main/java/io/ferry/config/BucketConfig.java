package io.ferry.config;

import java.util.Objects;

/**
 * Keys under {@code prefix} in a bucket of an S3-compatible service.
 *
 * @param writes how objects are written here when the bucket is a destination ({@link ObjectWrites#NONE} for a source)
 */
public record BucketConfig(S3EndpointConfig endpoint, String bucket, String prefix, ObjectWrites writes) implements StoreConfig {
  public BucketConfig {
    Objects.requireNonNull(endpoint, "endpoint is null");
    Objects.requireNonNull(bucket, "bucket is null");
    Objects.requireNonNull(prefix, "prefix is null");
    Objects.requireNonNull(writes, "writes is null");
  }

  public BucketConfig(S3EndpointConfig endpoint, String bucket, String prefix) {
    this(endpoint, bucket, prefix, ObjectWrites.NONE);
  }

  @Override
  public String describe() {
    return "s3://" + bucket + "/" + prefix + " at " + endpoint.describe();
  }
}
