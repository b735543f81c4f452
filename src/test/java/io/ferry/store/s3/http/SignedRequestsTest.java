package io.ferry.store.s3.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.store.ByteRange;
import io.ferry.store.s3.S3Clients;
import io.ferry.store.s3.http.SignedRequests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

class SignedRequestsTest {
  @ParameterizedTest(name = "range {0}+{1}: {2} '{3}' length {4} -> accepted {5}")
  @CsvSource(delimiter = '|', value = {
      "0   | 100 | 206 | bytes 0-99/100    | 100 | true",
      "0   | 100 | 206 | bytes 0-99/*      | 100 | true",
      "50  | 10  | 206 | bytes 50-59/1000  | 10  | true",
      "50  | 10  | 206 | bytes 50-60/1000  | 11  | false",
      "50  | 10  | 206 | bytes 0-9/1000    | 10  | false",
      "50  | 10  | 206 | ''                | 10  | false",
      "0   | 100 | 200 | ''                | 100 | true",
      "0   | 100 | 200 | ''                | 1000| false",
      "50  | 10  | 200 | ''                | 10  | false",
      "0   | 100 | 200 | ''                | ''  | false",
  })
  void theAnswerMustHoldExactlyTheRange(long offset, long length, int status, String contentRange, String contentLength, boolean ok) {
    ByteRange range = new ByteRange(offset, length);
    if (ok) {
      S3Answers.checkRange(range, status, contentRange, contentLength);
    } else {
      assertThatThrownBy(() -> S3Answers.checkRange(range, status, contentRange, contentLength))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(range.httpRange());
    }
  }

  @Test
  void aServerIgnoringRangeIsFatalNotRetried() {
    IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
        () -> S3Answers.checkRange(new ByteRange(8, 8), 200, "", "16"));
    assertThat(S3Errors.isRetryable(e)).isFalse();
    assertThat(e).hasMessageContaining("does not serve byte ranges");
  }

  @Test
  void errorAnswersBecomeTheClientsExceptions() {
    S3Exception key = S3Answers.error(404, "REQ9",
        "<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message>"
            + "<RequestId>OTHER</RequestId></Error>");
    assertThat(key).isInstanceOf(NoSuchKeyException.class);
    assertThat(key.statusCode()).isEqualTo(404);
    assertThat(key.requestId()).isEqualTo("REQ9");
    assertThat(S3Errors.isRetryable(key)).isFalse();

    assertThat(S3Answers.error(404, "", "<Error><Code>NoSuchBucket</Code></Error>")).isInstanceOf(NoSuchBucketException.class);

    S3Exception slow = S3Answers.error(503, "", "<Error><Code>SlowDown</Code><Message>Reduce &amp; retry &lt;now&gt;</Message>"
        + "<RequestId>R1</RequestId></Error>");
    assertThat(S3Errors.isRetryable(slow)).isTrue();
    assertThat(S3Errors.describe(slow)).isEqualTo("SlowDown (503): Reduce & retry <now> [request id R1]");

    S3Exception bare = S3Answers.error(412, "", "");
    assertThat(S3Errors.isRetryable(bare)).isFalse();
    assertThat(S3Errors.describe(bare)).isEqualTo("HTTP (412)");
    assertThat(S3Errors.isRetryable(S3Answers.error(500, "", "not xml"))).isTrue();
  }

  @ParameterizedTest(name = "{0}, trailer {1}, unsigned-payload {2} -> {3}")
  @CsvSource({
      "http://h:9000/b/k, false, false, STREAMING-AWS4-HMAC-SHA256-PAYLOAD,         h:9000",
      "http://h:9000/b/k, true,  false, STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER, h:9000",
      "http://h:9000/b/k, false, true,  UNSIGNED-PAYLOAD,                           h:9000",
      "http://h:9000/b/k, true,  true,  STREAMING-UNSIGNED-PAYLOAD-TRAILER,         h:9000",
      "http://h/b/k,      false, true,  UNSIGNED-PAYLOAD,                           h",
      "http://h:443/b/k,  false, true,  UNSIGNED-PAYLOAD,                           h:443",
      "https://h/b/k,     false, false, UNSIGNED-PAYLOAD,                           h",
      "https://h/b/k,     true,  true,  STREAMING-UNSIGNED-PAYLOAD-TRAILER,         h"})
  void bodiesAreSignedOverHttpUnlessUnsignedPayloadIsSet(String url, boolean trailer, boolean unsigned, String payloadHash,
      String host) {
    SigV4 requests = new SigV4(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("id", "secret")), "us-east-1", trailer, unsigned,
        java.time.Clock.systemUTC());
    java.net.URI uri = java.net.URI.create(url);
    software.amazon.awssdk.http.SdkHttpRequest request = software.amazon.awssdk.http.SdkHttpRequest.builder()
        .method(software.amazon.awssdk.http.SdkHttpMethod.PUT).uri(uri).putHeader("Content-Length", "3").build();
    byte[] body = {1, 2, 3};
    var signed = requests.sign(request, () -> new java.io.ByteArrayInputStream(body), true).request();
    assertThat(signed.firstMatchingHeader("x-amz-content-sha256")).contains(payloadHash);
    assertThat(signed.protocol()).isEqualTo(uri.getScheme()); // sent the way it was asked for
    assertThat(signed.port()).isEqualTo(request.port());
    assertThat(signed.host()).isEqualTo("h");
    assertThat(signed.firstMatchingHeader("Host")).contains(host); // signed as the HTTP client will send it
  }

  @Test
  void aCopyAnswered200WithAnErrorIsARetryableFailure() throws Exception {
    // S3 may answer a CopyObject 200 and then report in the body that the copy failed (the answer is sent before the
    // copy ends); a real HTTP server here answers so, and a copy it answers with a CopyObjectResult goes through
    com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    java.util.List<String> copySources = new java.util.concurrent.CopyOnWriteArrayList<>();
    server.createContext("/", exchange -> {
      copySources.add(exchange.getRequestHeaders().getFirst("x-amz-copy-source"));
      boolean fail = exchange.getRequestURI().getPath().endsWith("/fails");
      byte[] answer = (fail
          ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>InternalError</Code><Message>We encountered an internal "
              + "error. Please try again.</Message><RequestId>R7</RequestId></Error>"
          : "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<CopyObjectResult><LastModified>2026-11-30T00:00:00.000Z</LastModified>"
              + "<ETag>&quot;0123abcd&quot;</ETag></CopyObjectResult>").getBytes(java.nio.charset.StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("x-amz-request-id", "R7");
      exchange.sendResponseHeaders(200, answer.length);
      exchange.getResponseBody().write(answer);
      exchange.close();
    });
    server.start();
    try {
      io.ferry.config.S3EndpointConfig endpoint = io.ferry.config.S3EndpointConfig.withKeys(
          "http://127.0.0.1:" + server.getAddress().getPort(), "us-east-1", "id", "secret");
      SignedRequests requests = S3Clients.requests(endpoint, 2, java.time.Duration.ofSeconds(5));
      java.util.Map<String, String> headers = java.util.Map.of("x-amz-copy-source", "src/k");

      assertThat(requests.copy("dst", "ok", java.util.Map.of(), headers)).isEqualTo("0123abcd");
      assertThatThrownBy(() -> requests.copy("dst", "fails", java.util.Map.of(), headers))
          .isInstanceOfSatisfying(S3Exception.class, e -> {
            assertThat(e.statusCode()).isEqualTo(500);
            assertThat(S3Errors.isRetryable(e)).isTrue();
            assertThat(S3Errors.describe(e)).contains("InternalError").contains("R7");
          });
      assertThat(copySources).containsExactly("src/k", "src/k");
    } finally {
      server.stop(0);
    }
  }
}
