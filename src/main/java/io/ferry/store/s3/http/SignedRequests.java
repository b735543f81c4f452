package io.ferry.store.s3.http;

import io.ferry.store.ByteRange;
import io.ferry.store.ETags;
import io.ferry.store.StoreFailure;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.http.Abortable;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.S3Utilities;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * The requests of bulk transfers (ranged GET, PutObject, UploadPart, CopyObject, UploadPartCopy) sent straight to the
 * SDK's HTTP client, authorized by an {@link Authorization} (the SDK's SigV4 signer, or an IBM IAM bearer token),
 * without the S3 client's request pipeline (interceptors, marshalling, endpoint rules, metrics), which for small
 * objects costs more than the bytes (bench/transport.sh measures both ways).
 *
 * <p>Each request is the one the client would send: its URL from the client's {@link S3Utilities} (endpoint, region,
 * path-style or virtual-hosted addressing). Failures arrive as the client's would, so {@link S3Errors} classifies
 * them unchanged (a bearer token that cannot be fetched is a network failure, retried): an error answer becomes an
 * {@link S3Exception} with the status, S3 error code and request id ({@link S3Answers}); a reset or timeout stays an
 * {@link IOException}. A server that ignores the Range header is an error, never silently the wrong bytes, and so is
 * a copy answered 200 with an error. Unlike the client with {@code checksum-mode = when-supported}, a ranged GET does
 * not ask for the object's stored checksum ({@code x-amz-checksum-mode}) or check it; every range's CRC32C is
 * computed and kept in the ranges dataset.
 */
public final class SignedRequests {
  private static final int MAX_ERROR_BODY = 64 << 10;

  private final SdkHttpClient http;
  private final S3Utilities utilities;
  private final Authorization authorization;
  private final Map<String, String> always;
  private final Map<String, String> bucketUrls = new ConcurrentHashMap<>();

  public SignedRequests(SdkHttpClient http, S3Utilities utilities, Authorization authorization) {
    this(http, utilities, authorization, Map.of());
  }

  /** @param always headers every request carries (a Requester Pays source's {@code x-amz-request-payer}) */
  public SignedRequests(SdkHttpClient http, S3Utilities utilities, Authorization authorization, Map<String, String> always) {
    this.http = http;
    this.utilities = utilities;
    this.authorization = authorization;
    this.always = always;
  }

  /**
   * Opens {@code range} of {@code bucket/key}; with a non-empty {@code etag}, only while the object still has it
   * ({@code If-Match}, 412 otherwise).
   */
  public ResponseBody get(String bucket, String key, ByteRange range, String etag) throws IOException {
    return get(bucket, key, range, etag, false);
  }

  /**
   * As {@link #get(String, String, ByteRange, String)}; with {@code whole}, {@code range} is the whole object, asked
   * for without a Range header and with the object's stored checksum ({@code x-amz-checksum-mode}), which a ranged
   * answer never carries.
   */
  public ResponseBody get(String bucket, String key, ByteRange range, String etag, boolean whole) throws IOException {
    return get(bucket, key, "", range, etag, whole);
  }

  /** As {@link #get(String, String, ByteRange, String, boolean)}, of the version {@code versionId} ("" for the current one). */
  public ResponseBody get(String bucket, String key, String versionId, ByteRange range, String etag, boolean whole) throws IOException {
    SdkHttpRequest.Builder request = request(SdkHttpMethod.GET, bucket, key,
        versionId.isEmpty() ? Map.of() : Map.of("versionId", versionId));
    if (whole) {
      request.putHeader("x-amz-checksum-mode", "ENABLED");
    } else {
      request.putHeader("Range", range.httpRange());
    }
    if (!etag.isEmpty()) request.putHeader("If-Match", "\"" + etag + "\"");
    HttpExecuteResponse response = send(request.build(), null);
    SdkHttpResponse head = response.httpResponse();
    AbortableInputStream body = body(response);
    try {
      failUnlessSuccessful(head, body);
      S3Answers.checkRange(range, head.statusCode(), head.firstMatchingHeader("Content-Range").orElse(""),
          head.firstMatchingHeader("Content-Length").orElse(""));
    } catch (IOException | RuntimeException e) {
      body.abort();
      throw e;
    }
    return new ResponseBody(body, head);
  }

  /**
   * A GET of the bucket itself with {@code query} (a listing), its answer's body whole: a page of a listing is at most
   * about a megabyte.
   */
  public byte[] getBucket(String bucket, Map<String, String> query) throws IOException {
    String url = bucketUrl(bucket);
    // path-style "http://host/bucket/" names the bucket without its last '/'; virtual-hosted "https://bucket.host/" with it
    if (URI.create(url).getPath().length() > 1) url = url.substring(0, url.length() - 1);
    SdkHttpRequest.Builder request = SdkHttpRequest.builder().method(SdkHttpMethod.GET).uri(URI.create(url)).putHeader("User-Agent",
        "ferry");
    always.forEach(request::putHeader);
    query.forEach(request::putRawQueryParameter);
    HttpExecuteResponse response = send(request.build(), null);
    AbortableInputStream body = body(response);
    failUnlessSuccessful(response.httpResponse(), body);
    try (InputStream in = body) {
      return in.readAllBytes();
    }
  }

  /**
   * A PUT carrying {@code length} bytes of {@code body} (PutObject; UploadPart with {@code partNumber} and
   * {@code uploadId} in {@code query}); {@code headers} are the request's own (content headers, user metadata, write
   * settings). Returns the ETag the service answered, unquoted. The body is read once, as it is sent.
   */
  public String put(String bucket, String key, Map<String, String> query, Map<String, String> headers, InputStream body,
      long length) throws IOException {
    SdkHttpRequest.Builder request = request(SdkHttpMethod.PUT, bucket, key, query).putHeader("Content-Length", Long.toString(length));
    headers.forEach(request::putHeader);
    // An empty body goes as it is, not aws-chunked (over http the SHA-256 of nothing is signed, unless unsigned-payload):
    // S3Proxy closes the connection after an empty aws-chunked body, and the next request on it failed with a broken pipe.
    HttpExecuteResponse response = length == 0
        ? send(request.build(), InputStream::nullInputStream, false) : send(request.build(), () -> body, true);
    AbortableInputStream answer = body(response);
    try (InputStream in = answer) {
      failUnlessSuccessful(response.httpResponse(), answer);
      in.transferTo(OutputStream.nullOutputStream());
    } catch (S3Exception e) {
      throw corruptedInTransit(e, bucket);
    }
    return ETags.unquote(response.httpResponse().firstMatchingHeader("ETag").orElse(""));
  }

  /** Codes by which a service says the body it received is not the one whose digest was sent. */
  private static final Set<String> BAD_BODY = Set.of("BadDigest", "XAmzContentSHA256Mismatch", "InvalidDigest");

  /**
   * An upload refused for its body: a digest mismatch is bytes changed on the way; SignatureDoesNotMatch is too when
   * the same keys sign a request without a body that the service accepts (asked right then), and otherwise the keys'
   * fault. Changed bytes are retried ({@link StoreFailure.Kind#RETRYABLE}); any other error is as it was.
   */
  private IOException corruptedInTransit(S3Exception e, String bucket) throws S3Exception {
    String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    String id = e.requestId() == null || e.requestId().isEmpty() ? "" : " [request id " + e.requestId() + "]";
    if (BAD_BODY.contains(code)) {
      return new StoreFailure(StoreFailure.Kind.RETRYABLE, code + " (" + e.statusCode()
          + "): the service received other bytes than the digest sent with them (changed in transit)" + id, e);
    }
    if ("SignatureDoesNotMatch".equals(code) && keysWork(bucket)) {
      return new StoreFailure(StoreFailure.Kind.RETRYABLE, code + " (" + e.statusCode()
          + ") for an upload's body, while the same keys sign a request without a body that the service accepts: the"
          + " body's bytes changed in transit" + id, e);
    }
    throw e;
  }

  /**
   * Whether a HEAD of the bucket, signed with these keys, is accepted; asked twice if need be, since the refused
   * upload's connection may have been closed under the pool.
   */
  private boolean keysWork(String bucket) {
    for (int attempt = 0; attempt < 2; attempt++) {
      try {
        HttpExecuteResponse response = send(request(SdkHttpMethod.HEAD, bucket, "", Map.of()).build(), null);
        body(response).close();
        return response.httpResponse().isSuccessful();
      } catch (IOException | RuntimeException e) {
        // a dead connection, or no answer: once more
      }
    }
    return false;
  }

  /**
   * A PUT without a body whose answer is XML naming an ETag: CopyObject, or UploadPartCopy with {@code partNumber}
   * and {@code uploadId} in {@code query}; {@code headers} carry {@code x-amz-copy-source} and the rest. Returns the
   * new object's or part's ETag, unquoted. S3 may answer 200 and then report the copy failed in the body: that is an
   * error too (status 500, so that it is retried).
   */
  public String copy(String bucket, String key, Map<String, String> query, Map<String, String> headers) throws IOException {
    SdkHttpRequest.Builder request = request(SdkHttpMethod.PUT, bucket, key, query);
    headers.forEach(request::putHeader);
    HttpExecuteResponse response = send(request.build(), null);
    AbortableInputStream answer = body(response);
    String text;
    try (InputStream in = answer) {
      failUnlessSuccessful(response.httpResponse(), answer);
      text = new String(in.readNBytes(MAX_ERROR_BODY), StandardCharsets.UTF_8);
    }
    if (text.contains("<Error>")) {
      throw S3Answers.error(500, response.httpResponse().firstMatchingHeader("x-amz-request-id").orElse(""), text);
    }
    String etag = S3Answers.element(text, "ETag");
    if (etag == null) throw new IOException("the copy's answer names no ETag");
    return ETags.unquote(etag);
  }

  /** {@code bucket}'s URL followed by the key, as the client addresses it. */
  private SdkHttpRequest.Builder request(SdkHttpMethod method, String bucket, String key, Map<String, String> query) {
    SdkHttpRequest.Builder request = SdkHttpRequest.builder()
        .method(method)
        .uri(URI.create(bucketUrl(bucket) + SdkHttpUtils.urlEncodeIgnoreSlashes(key)))
        .putHeader("User-Agent", "ferry");
    always.forEach(request::putHeader);
    query.forEach(request::putRawQueryParameter);
    return request;
  }

  private HttpExecuteResponse send(SdkHttpRequest request, ContentStreamProvider payload) throws IOException {
    return send(request, payload, payload != null);
  }

  /** @param chunked a body goes aws-chunked (signed per chunk over http, with the CRC32 trailer where configured) */
  private HttpExecuteResponse send(SdkHttpRequest request, ContentStreamProvider payload, boolean chunked) throws IOException {
    Authorization.Authorized authorized = authorization.authorize(request, payload, chunked);
    return http.prepareRequest(HttpExecuteRequest.builder().request(authorized.request()).contentStreamProvider(authorized.content())
        .build()).call();
  }

  private static AbortableInputStream body(HttpExecuteResponse response) {
    return response.responseBody().orElseGet(() -> AbortableInputStream.create(InputStream.nullInputStream()));
  }

  /**
   * Throws the error an unsuccessful answer carries (its XML body read, then closed). An answer saying the request's
   * time is off (RequestTimeTooSkewed, RequestExpired) also sets the clock offset the next requests are signed with,
   * from the answer's Date header ({@link Authorization#serviceTimeIs}), and is retried ({@link S3Errors}).
   */
  private void failUnlessSuccessful(SdkHttpResponse head, InputStream body) throws IOException {
    if (head.isSuccessful()) return;
    String text;
    try (InputStream in = body) {
      text = new String(in.readNBytes(MAX_ERROR_BODY), StandardCharsets.UTF_8);
      if (in.read() >= 0 && in instanceof Abortable abortable) abortable.abort(); // not an S3 error page: not drained
    }
    S3Exception error = S3Answers.error(head.statusCode(), head.firstMatchingHeader("x-amz-request-id").orElse(""), text);
    String code = error.awsErrorDetails().errorCode();
    if ("RequestTimeTooSkewed".equals(code) || "RequestExpired".equals(code)) {
      head.firstMatchingHeader("Date").ifPresent(authorization::serviceTimeIs);
    }
    throw error;
  }

  private String bucketUrl(String bucket) {
    return bucketUrls.computeIfAbsent(bucket, b -> {
      String probe = utilities.getUrl(r -> r.bucket(b).key("k")).toString();
      return probe.substring(0, probe.length() - 1);
    });
  }
}
