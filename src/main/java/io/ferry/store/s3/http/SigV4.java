package io.ferry.store.s3.http;

import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * SigV4 as the S3 client's auth scheme signs: no double URL encoding, no path normalization, payload signing off, so
 * over https a body goes {@code UNSIGNED-PAYLOAD}; the signer turns signing on over plain http, where a body goes
 * aws-chunked with a signature per 128 KiB chunk, encoded by {@link SignedChunks} (the SDK's bytes without its two
 * fresh arrays per chunk). With {@code checksumTrailer} a chunked body carries a CRC32 trailer as the client would
 * add. Signs with the service's clock once an answer has said ours is off, as the SDK's client does.
 */
public final class SigV4 implements Authorization {
  private static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();

  private final AwsCredentialsProvider credentials;
  private final String region;
  private final boolean checksumTrailer;
  private final boolean unsignedOverHttp;
  private final Clock clock;
  /** How far the service's clock is ahead of ours. */
  private volatile Duration skew = Duration.ZERO;

  /** {@code unsignedOverHttp}: bodies go unsigned over plain http too (unsigned-payload). */
  public SigV4(AwsCredentialsProvider credentials, String region, boolean checksumTrailer, boolean unsignedOverHttp, Clock clock) {
    this.credentials = credentials;
    this.region = region;
    this.checksumTrailer = checksumTrailer;
    this.unsignedOverHttp = unsignedOverHttp;
    this.clock = clock;
  }

  @Override
  public Authorized authorize(SdkHttpRequest request, ContentStreamProvider payload, boolean chunked) {
    AwsCredentialsIdentity identity = credentials.resolveCredentials();
    SignedRequest signed = sign(request, payload, chunked, identity);
    ContentStreamProvider content = signed.payload().orElse(payload);
    SignedChunks.Seed seed = chunked && payload != null ? SignedChunks.seed(signed.request().headers(), identity.secretAccessKey()) : null;
    if (seed != null) content = () -> seed.encode(payload.newStream());
    return new Authorized(signed.request(), content);
  }

  @Override
  public void serviceTimeIs(String date) {
    try {
      skew = Duration.between(clock.instant(), ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
    } catch (DateTimeParseException e) {
      // no time to learn from: signed as before
    }
  }

  public SignedRequest sign(SdkHttpRequest request, ContentStreamProvider payload, boolean chunked) {
    return sign(request, payload, chunked, credentials.resolveCredentials());
  }

  /**
   * With {@code unsignedOverHttp} a request with a body over plain http is signed as if it went over https (the scheme
   * is not part of a signature; the Host header is fixed first to the value the HTTP client sends over http) and then
   * sent over http, so its body goes {@code UNSIGNED-PAYLOAD}, or {@code STREAMING-UNSIGNED-PAYLOAD-TRAILER} with the
   * CRC32 trailer.
   */
  private SignedRequest sign(SdkHttpRequest request, ContentStreamProvider payload, boolean chunked, AwsCredentialsIdentity identity) {
    boolean unsigned = unsignedOverHttp && payload != null && "http".equals(request.protocol());
    SdkHttpRequest toSign = unsigned
        ? request.toBuilder().putHeader("Host", hostHeader(request)).protocol("https").port(request.port()).build() : request;
    SignedRequest signed = SIGNER.sign(r -> {
      r.identity(identity).request(toSign).payload(payload)
          .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
          .putProperty(AwsV4HttpSigner.REGION_NAME, region)
          .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
          .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
          .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false)
          .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.offset(clock, skew));
      if (chunked) {
        r.putProperty(AwsV4HttpSigner.CHUNK_ENCODING_ENABLED, true);
        if (checksumTrailer) r.putProperty(AwsV4HttpSigner.CHECKSUM_ALGORITHM, DefaultChecksumAlgorithm.CRC32);
      }
    });
    if (!unsigned) return signed;
    return signed.toBuilder().request(signed.request().toBuilder().protocol("http").port(request.port()).build()).build();
  }

  /** The Host header the HTTP client sends: the host, with the port unless it is the scheme's own. */
  private static String hostHeader(SdkHttpRequest request) {
    return SdkHttpUtils.isUsingStandardPort(request.protocol(), request.port()) ? request.host() : request.host() + ":" + request.port();
  }
}
