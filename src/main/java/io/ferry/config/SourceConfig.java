package io.ferry.config;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/** The bucket (and the keys in it) to copy from. */
public record SourceConfig(S3EndpointConfig endpoint, String bucket, String prefix, List<String> include, List<String> exclude)
    implements Serializable {
  public SourceConfig {
    Objects.requireNonNull(endpoint, "endpoint is null");
    Objects.requireNonNull(bucket, "bucket is null");
    Objects.requireNonNull(prefix, "prefix is null");
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
  }

  public String describe() {
    return "s3://" + bucket + "/" + prefix + " at " + endpoint.describe();
  }
}
