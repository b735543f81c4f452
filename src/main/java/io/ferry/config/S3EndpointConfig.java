package io.ferry.config;

import java.io.Serializable;
import java.util.Objects;

/**
 * How to reach one S3-compatible service: endpoint, region, addressing, credentials and checksum mode.
 * Serializable so executors can build their own clients; the secret masks itself in {@code toString}.
 */
public record S3EndpointConfig(
    String endpoint,
    String region,
    boolean pathStyle,
    CredentialsType credentialsType,
    String accessKeyId,
    Secret secretAccessKey,
    ChecksumMode checksumMode)
    implements Serializable {

  public enum CredentialsType { STATIC, DEFAULT_CHAIN }

  public enum ChecksumMode { WHEN_SUPPORTED, WHEN_REQUIRED }

  public S3EndpointConfig {
    Objects.requireNonNull(endpoint, "endpoint is null");
    Objects.requireNonNull(region, "region is null");
    Objects.requireNonNull(credentialsType, "credentialsType is null");
    Objects.requireNonNull(accessKeyId, "accessKeyId is null");
    Objects.requireNonNull(secretAccessKey, "secretAccessKey is null");
    Objects.requireNonNull(checksumMode, "checksumMode is null");
  }

  /** Where requests go, for messages: the endpoint, or AWS's regional one. */
  public String describe() {
    return endpoint.isEmpty() ? "AWS S3 (" + region + ")" : endpoint;
  }
}
