package io.ferry.config;

import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Where objects land: a directory ({@link StoreKind#FILE}: {@code path}) or a bucket ({@link StoreKind#S3}: endpoint,
 * bucket, prefix and how objects are written there).
 */
public record DestinationConfig(
    StoreKind kind,
    String path,
    S3EndpointConfig endpoint,
    String bucket,
    String prefix,
    String storageClass,
    String serverSideEncryption,
    String kmsKeyId,
    ServerSideCopy serverSideCopy,
    Map<String, String> tags)
    implements Serializable {

  /** When a bucket-to-bucket copy may stay inside the service. */
  public enum ServerSideCopy { AUTO, ALWAYS, NEVER }

  public DestinationConfig {
    Objects.requireNonNull(kind, "kind is null");
    Objects.requireNonNull(path, "path is null");
    Objects.requireNonNull(endpoint, "endpoint is null");
    Objects.requireNonNull(bucket, "bucket is null");
    Objects.requireNonNull(prefix, "prefix is null");
    Objects.requireNonNull(storageClass, "storageClass is null");
    Objects.requireNonNull(serverSideEncryption, "serverSideEncryption is null");
    Objects.requireNonNull(kmsKeyId, "kmsKeyId is null");
    Objects.requireNonNull(serverSideCopy, "serverSideCopy is null");
    tags = new TreeMap<>(tags);
  }

  /** A directory destination. */
  public static DestinationConfig directory(String path) {
    return new DestinationConfig(StoreKind.FILE, path, S3EndpointConfig.withKeys("", "us-east-1", "", ""), "", "", "", "", "",
        ServerSideCopy.AUTO, Map.of());
  }

  public String describe() {
    return kind == StoreKind.FILE ? path : "s3://" + bucket + "/" + prefix + " at " + endpoint.describe();
  }

  /** True when objects of {@code source} are copied inside the service rather than streamed through executors. */
  public boolean serverSideCopyFrom(SourceConfig source) {
    if (kind != StoreKind.S3 || source.kind() != StoreKind.S3) return false;
    return switch (serverSideCopy) {
      case ALWAYS -> true;
      case NEVER -> false;
      case AUTO -> endpoint.sameServiceAs(source.endpoint());
    };
  }
}
