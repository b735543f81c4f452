package io.ferry.config;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * What to copy: keys under a prefix of a bucket ({@link StoreKind#S3}), or files under a directory
 * ({@link StoreKind#FILE}, then {@code endpoint} is unused and {@code path} is the directory).
 */
public record SourceConfig(StoreKind kind, S3EndpointConfig endpoint, String bucket, String prefix, String path,
    List<String> include, List<String> exclude) implements Serializable {
  public SourceConfig {
    Objects.requireNonNull(kind, "kind is null");
    Objects.requireNonNull(endpoint, "endpoint is null");
    Objects.requireNonNull(bucket, "bucket is null");
    Objects.requireNonNull(prefix, "prefix is null");
    Objects.requireNonNull(path, "path is null");
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
  }

  /** A bucket source. */
  public static SourceConfig bucket(S3EndpointConfig endpoint, String bucket, String prefix, List<String> include, List<String> exclude) {
    return new SourceConfig(StoreKind.S3, endpoint, bucket, prefix, "", include, exclude);
  }

  public String describe() {
    return kind == StoreKind.S3 ? "s3://" + bucket + "/" + prefix + " at " + endpoint.describe() : path;
  }
}
