package io.ferry.source;

import io.ferry.plan.ByteRange;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.http.Abortable;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.services.s3.S3Utilities;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * Ranged GETs sent straight to the SDK's HTTP client, signed by the SDK's SigV4 signer (or carrying an IBM IAM bearer
 * token), without the S3 client's request pipeline (interceptors, marshalling, endpoint rules, metrics). For small
 * objects that pipeline cost more than the bytes: 2,000 GETs of 256 KiB from S3Proxy on 16 threads took 3.1–3.5 CPU-ms
 * each through {@code S3Client} and 2.3–2.5 CPU-ms this way (bench/results/README.md, round 4).
 *
 * <p>The URL is the one the client would send (its {@link S3Utilities}: endpoint, region, path-style or
 * virtual-hosted addressing); the payload is unsigned ({@code UNSIGNED-PAYLOAD}: a GET has none). Failures arrive as
 * the client's would, so {@link S3Errors} classifies them unchanged: an error answer becomes an {@link S3Exception}
 * with the status, S3 error code and request id; a reset or timeout stays an {@link IOException}. A server that
 * ignores the Range header is an error, never silently the wrong bytes.
 */
public final class SignedGets {
  private static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();
  private static final int MAX_ERROR_BODY = 64 << 10;
  private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+|\\*)");

  private final SdkHttpClient http;
  private final S3Utilities utilities;
  private final String region;
  private final AwsCredentialsProvider credentials;
  private final IbmIamTokens tokens;
  private final Map<String, String> bucketUrls = new ConcurrentHashMap<>();

  /** Signs with {@code credentials}, or, when they are null, authorizes with {@code tokens}' bearer token. */
  SignedGets(SdkHttpClient http, S3Utilities utilities, String region, AwsCredentialsProvider credentials, IbmIamTokens tokens) {
    this.http = http;
    this.utilities = utilities;
    this.region = region;
    this.credentials = credentials;
    this.tokens = tokens;
  }

  /**
   * Opens {@code range} of {@code bucket/key}; with a non-empty {@code etag}, only while the object still has it
   * ({@code If-Match}, 412 otherwise).
   */
  public Body get(String bucket, String key, ByteRange range, String etag) throws IOException {
    SdkHttpRequest.Builder request = SdkHttpRequest.builder()
        .method(SdkHttpMethod.GET)
        .uri(URI.create(bucketUrl(bucket) + SdkHttpUtils.urlEncodeIgnoreSlashes(key)))
        .putHeader("Range", range.httpRange())
        .putHeader("User-Agent", "ferry");
    if (!etag.isEmpty()) request.putHeader("If-Match", "\"" + etag + "\"");
    HttpExecuteResponse response = http.prepareRequest(HttpExecuteRequest.builder().request(authorize(request.build())).build()).call();
    SdkHttpResponse head = response.httpResponse();
    AbortableInputStream body = response.responseBody().orElseGet(() -> AbortableInputStream.create(InputStream.nullInputStream()));
    try {
      if (!head.isSuccessful()) {
        String text;
        try (InputStream in = body) {
          text = new String(in.readNBytes(MAX_ERROR_BODY), StandardCharsets.UTF_8);
        }
        throw error(head.statusCode(), head.firstMatchingHeader("x-amz-request-id").orElse(""), text);
      }
      checkRange(range, head.statusCode(), head.firstMatchingHeader("Content-Range").orElse(""),
          head.firstMatchingHeader("Content-Length").orElse(""));
    } catch (IOException | RuntimeException e) {
      body.abort();
      throw e;
    }
    return new Body(body, head);
  }

  private String bucketUrl(String bucket) {
    return bucketUrls.computeIfAbsent(bucket, b -> {
      String probe = utilities.getUrl(r -> r.bucket(b).key("k")).toString();
      return probe.substring(0, probe.length() - 1);
    });
  }

  private SdkHttpRequest authorize(SdkHttpRequest request) {
    if (credentials == null) return request.toBuilder().putHeader("Authorization", "Bearer " + tokens.token()).build();
    return SIGNER.sign(r -> r.identity(credentials.resolveCredentials()).request(request).payload(null)
        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
        .putProperty(AwsV4HttpSigner.REGION_NAME, region)
        .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
        .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
        .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false)).request();
  }

  /**
   * Fails unless the answer holds exactly {@code range}: a 206 whose Content-Range starts and ends where asked, or a
   * 200 (the whole object) only where the range is the whole object from byte 0.
   */
  static void checkRange(ByteRange range, int status, String contentRange, String contentLength) {
    long last = range.offset() + range.length() - 1;
    if (status == 206) {
      Matcher m = CONTENT_RANGE.matcher(contentRange.trim());
      if (m.matches() && Long.parseLong(m.group(1)) == range.offset() && Long.parseLong(m.group(2)) == last) return;
      throw new IllegalStateException("asked for " + range.httpRange() + ", the server sent Content-Range '" + contentRange + "'");
    }
    if (status == 200 && range.offset() == 0 && contentLength.trim().equals(Long.toString(range.length()))) return;
    throw new IllegalStateException("asked for " + range.httpRange() + ", the server answered " + status
        + " with " + (contentLength.isEmpty() ? "no length" : contentLength + " bytes") + ": it does not serve byte ranges");
  }

  /** The exception the S3 client would throw for this error answer (its XML body parsed for code, message, request id). */
  static S3Exception error(int status, String requestIdHeader, String body) {
    String code = element(body, "Code");
    String message = element(body, "Message");
    String requestId = requestIdHeader.isEmpty() ? element(body, "RequestId") : requestIdHeader;
    S3Exception.Builder builder = "NoSuchKey".equals(code) ? NoSuchKeyException.builder()
        : "NoSuchBucket".equals(code) ? NoSuchBucketException.builder() : S3Exception.builder();
    return (S3Exception) builder.statusCode(status)
        .requestId(requestId)
        .message((code == null ? "HTTP " + status : code) + (message == null ? "" : ": " + message))
        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).serviceName("S3").build())
        .build();
  }

  private static String element(String xml, String name) {
    Matcher m = Pattern.compile("<" + name + ">([^<]*)</" + name + ">").matcher(xml);
    if (!m.find()) return null;
    return m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'")
        .replace("&amp;", "&");
  }

  /** A response body that can be abandoned without draining it, with the response's headers. */
  public static final class Body extends FilterInputStream implements Abortable {
    private final SdkHttpResponse response;

    Body(AbortableInputStream in, SdkHttpResponse response) {
      super(in);
      this.response = response;
    }

    public Optional<String> header(String name) {
      return response.firstMatchingHeader(name);
    }

    /** The object's user metadata: every {@code x-amz-meta-*} header, without the prefix. */
    public Map<String, String> userMetadata() {
      Map<String, String> metadata = new LinkedHashMap<>();
      response.forEachHeader((name, values) -> {
        if (name.toLowerCase(Locale.ROOT).startsWith("x-amz-meta-") && !values.isEmpty()) {
          metadata.put(name.substring("x-amz-meta-".length()), values.get(0));
        }
      });
      return metadata;
    }

    @Override
    public void abort() {
      ((Abortable) in).abort();
    }
  }
}
