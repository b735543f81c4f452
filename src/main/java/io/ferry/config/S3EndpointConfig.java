package io.ferry.config;

import java.io.Serializable;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How to reach one S3-compatible service: endpoint, region, addressing, credentials, checksums, payload signing and
 * the certificates to trust. Serializable so executors can build their own clients; secrets mask themselves in
 * {@code toString}.
 *
 * @param unsignedPayload object data sent to this endpoint (PutObject and UploadPart bodies) goes
 *     {@code UNSIGNED-PAYLOAD} over plain http too (over https it always does): no SHA-256 of every byte on either
 *     side, and nothing but TCP (and the CRC32 trailer with {@code checksum-mode = when-supported}) guards it on the
 *     wire. The small XML bodies of the client's own calls (CompleteMultipartUpload) stay signed.
 * @param caBundle a PEM file of certificates to trust besides the system's, for an https endpoint whose certificate a
 *     private CA signed (on-premises MinIO, Ceph); "" for the system's alone. Verification is never off.
 * @param requesterPays every request says the requester pays ({@code x-amz-request-payer: requester}), as a bucket
 *     set to Requester Pays requires of anyone but its owner
 */
public record S3EndpointConfig(String endpoint, String region, boolean pathStyle, Credentials credentials, ChecksumMode checksumMode,
    boolean unsignedPayload, String caBundle, boolean requesterPays) implements Serializable {

  public enum CredentialsType { STATIC, DEFAULT_CHAIN, IBM_IAM, ASSUME_ROLE }

  public enum ChecksumMode { WHEN_SUPPORTED, WHEN_REQUIRED }

  /**
   * Who the requests are sent as.
   *
   * @param apiKey for {@link CredentialsType#IBM_IAM}: the IBM Cloud API key exchanged at {@code tokenUrl}
   * @param sessionToken for {@link CredentialsType#STATIC}: the token of temporary keys (STS), sent with every request;
   *     empty for long-term keys
   * @param role for {@link CredentialsType#ASSUME_ROLE}: the role assumed, as the static keys or, where they are empty,
   *     as the SDK's default chain
   */
  public record Credentials(CredentialsType type, String accessKeyId, Secret secretAccessKey, Secret apiKey, String tokenUrl,
      Secret sessionToken, Role role) implements Serializable {
    public Credentials {
      Objects.requireNonNull(type, "type is null");
      Objects.requireNonNull(role, "role is null");
      Objects.requireNonNull(accessKeyId, "accessKeyId is null");
      Objects.requireNonNull(secretAccessKey, "secretAccessKey is null");
      Objects.requireNonNull(apiKey, "apiKey is null");
      Objects.requireNonNull(tokenUrl, "tokenUrl is null");
      Objects.requireNonNull(sessionToken, "sessionToken is null");
    }

    public Credentials(CredentialsType type, String accessKeyId, Secret secretAccessKey, Secret apiKey, String tokenUrl) {
      this(type, accessKeyId, secretAccessKey, apiKey, tokenUrl, new Secret(""), Role.NONE);
    }

    /** Static HMAC keys. */
    public static Credentials keys(String accessKeyId, String secretAccessKey) {
      return new Credentials(CredentialsType.STATIC, accessKeyId, new Secret(secretAccessKey), new Secret(""), "");
    }
  }

  /**
   * A role assumed with STS AssumeRole; its temporary keys are refreshed before they expire.
   *
   * @param externalId the external id the role's trust policy asks for ("" for none)
   * @param stsEndpoint the STS endpoint; "" for AWS STS in the endpoint's region
   */
  public record Role(String arn, Secret externalId, String sessionName, Duration duration, String stsEndpoint)
      implements Serializable {
    public static final Role NONE = new Role("", new Secret(""), "", Duration.ZERO, "");

    public Role {
      Objects.requireNonNull(arn, "arn is null");
      Objects.requireNonNull(externalId, "externalId is null");
      Objects.requireNonNull(sessionName, "sessionName is null");
      Objects.requireNonNull(duration, "duration is null");
      Objects.requireNonNull(stsEndpoint, "stsEndpoint is null");
    }
  }

  public S3EndpointConfig {
    Objects.requireNonNull(endpoint, "endpoint is null");
    Objects.requireNonNull(region, "region is null");
    Objects.requireNonNull(credentials, "credentials is null");
    Objects.requireNonNull(checksumMode, "checksumMode is null");
    Objects.requireNonNull(caBundle, "caBundle is null");
  }

  /** Static HMAC keys, path-style, checksums when required: the common case. */
  public static S3EndpointConfig withKeys(String endpoint, String region, String accessKeyId, String secretAccessKey) {
    return new S3EndpointConfig(endpoint, region, true, Credentials.keys(accessKeyId, secretAccessKey), ChecksumMode.WHEN_REQUIRED,
        false, "", false);
  }

  public S3EndpointConfig withChecksumMode(ChecksumMode mode) {
    return new S3EndpointConfig(endpoint, region, pathStyle, credentials, mode, unsignedPayload, caBundle, requesterPays);
  }

  public S3EndpointConfig withUnsignedPayload(boolean unsigned) {
    return new S3EndpointConfig(endpoint, region, pathStyle, credentials, checksumMode, unsigned, caBundle, requesterPays);
  }

  /** Where requests go, for messages: the endpoint, or AWS's regional one. */
  public String describe() {
    return endpoint.isEmpty() ? "AWS S3 (" + region + ")" : endpoint;
  }

  /**
   * True when a request signed for this endpoint may name an object of {@code other} as its copy source: the same
   * service address and the same identity (the same keys, or both the ambient default chain).
   */
  /** Whether both name the same service's address (a bucket of one name there is one bucket, whoever asks). */
  public boolean sameEndpointAs(S3EndpointConfig other) {
    return normalize(endpoint).equals(normalize(other.endpoint));
  }

  public boolean sameServiceAs(S3EndpointConfig other) {
    if (!normalize(endpoint).equals(normalize(other.endpoint)) || !region.equals(other.region)) return false;
    Credentials a = credentials;
    Credentials b = other.credentials;
    if (a.type() != b.type()) return false;
    return switch (a.type()) {
      case STATIC -> a.accessKeyId().equals(b.accessKeyId()) && a.secretAccessKey().equals(b.secretAccessKey())
          && a.sessionToken().equals(b.sessionToken());
      case DEFAULT_CHAIN -> true;
      case IBM_IAM -> a.apiKey().equals(b.apiKey()) && a.tokenUrl().equals(b.tokenUrl());
      case ASSUME_ROLE -> a.role().equals(b.role()) && a.accessKeyId().equals(b.accessKeyId())
          && a.secretAccessKey().equals(b.secretAccessKey());
    };
  }

  private static String normalize(String url) {
    String u = url.trim().toLowerCase(Locale.ROOT);
    while (u.endsWith("/")) u = u.substring(0, u.length() - 1);
    if (u.startsWith("https://") && u.endsWith(":443")) u = u.substring(0, u.length() - 4);
    if (u.startsWith("http://") && u.endsWith(":80")) u = u.substring(0, u.length() - 3);
    return u;
  }
}
