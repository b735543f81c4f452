package io.ferry.config;

import java.io.Serializable;
import java.util.Objects;

/**
 * How to reach one S3-compatible service: endpoint, region, addressing, credentials, checksum mode and payload signing.
 * Serializable so executors can build their own clients; secrets mask themselves in {@code toString}.
 *
 * @param apiKey for {@link CredentialsType#IBM_IAM}: the IBM Cloud API key exchanged at {@code tokenUrl}
 * @param unsignedPayload object data sent to this endpoint (PutObject and UploadPart bodies) goes
 *     {@code UNSIGNED-PAYLOAD} over plain http too (over https it always does): no SHA-256 of every byte on either
 *     side, and nothing but TCP (and the CRC32 trailer with {@code checksum-mode = when-supported}) guards it on the
 *     wire. The small XML bodies of the client's own calls (CompleteMultipartUpload) stay signed.
 */
public record S3EndpointConfig(
    String endpoint,
    String region,
    boolean pathStyle,
    CredentialsType credentialsType,
    String accessKeyId,
    Secret secretAccessKey,
    Secret apiKey,
    String tokenUrl,
    ChecksumMode checksumMode,
    boolean unsignedPayload)
    implements Serializable {

  public enum CredentialsType { STATIC, DEFAULT_CHAIN, IBM_IAM }

  public enum ChecksumMode { WHEN_SUPPORTED, WHEN_REQUIRED }

  public S3EndpointConfig {
    Objects.requireNonNull(endpoint, "endpoint is null");
    Objects.requireNonNull(region, "region is null");
    Objects.requireNonNull(credentialsType, "credentialsType is null");
    Objects.requireNonNull(accessKeyId, "accessKeyId is null");
    Objects.requireNonNull(secretAccessKey, "secretAccessKey is null");
    Objects.requireNonNull(apiKey, "apiKey is null");
    Objects.requireNonNull(tokenUrl, "tokenUrl is null");
    Objects.requireNonNull(checksumMode, "checksumMode is null");
  }

  /** Static HMAC keys: the common case. */
  public static S3EndpointConfig withKeys(String endpoint, String region, String accessKeyId, String secretAccessKey) {
    return new S3EndpointConfig(endpoint, region, true, CredentialsType.STATIC, accessKeyId, new Secret(secretAccessKey),
        new Secret(""), "", ChecksumMode.WHEN_REQUIRED, false);
  }

  /** Where requests go, for messages: the endpoint, or AWS's regional one. */
  public String describe() {
    return endpoint.isEmpty() ? "AWS S3 (" + region + ")" : endpoint;
  }

  /**
   * True when a request signed for this endpoint may name an object of {@code other} as its copy source: the same
   * service address and the same identity (the same keys, or both the ambient default chain).
   */
  public boolean sameServiceAs(S3EndpointConfig other) {
    if (!normalize(endpoint).equals(normalize(other.endpoint)) || !region.equals(other.region)) return false;
    if (credentialsType != other.credentialsType) return false;
    return switch (credentialsType) {
      case STATIC -> accessKeyId.equals(other.accessKeyId) && secretAccessKey.equals(other.secretAccessKey);
      case DEFAULT_CHAIN -> true;
      case IBM_IAM -> apiKey.equals(other.apiKey) && tokenUrl.equals(other.tokenUrl);
    };
  }

  private static String normalize(String url) {
    String u = url.trim().toLowerCase(java.util.Locale.ROOT);
    while (u.endsWith("/")) u = u.substring(0, u.length() - 1);
    if (u.startsWith("https://") && u.endsWith(":443")) u = u.substring(0, u.length() - 4);
    if (u.startsWith("http://") && u.endsWith(":80")) u = u.substring(0, u.length() - 3);
    return u;
  }
}
