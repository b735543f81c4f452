package io.ferry.store.s3.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.config.S3EndpointConfig;
import io.ferry.store.ByteRange;
import io.ferry.store.s3.S3Clients;
import io.ferry.store.s3.http.SignedRequests;
import io.ferry.support.S3Backend;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Ranged GETs and object writes without the client pipeline, over real HTTP with SigV4 against S3Proxy. */
class SignedRequestsIT {
  private static final String BUCKET = "gets";
  private static final String ODD_KEY = "dir/a key é+%~*.bin";
  private static final int SIZE = 1 << 20;

  @TempDir static Path work;
  static S3Backend backend;
  static S3Client s3;
  static SignedRequests gets;
  static SignedRequests withTrailer;
  static SignedRequests unsigned;
  static SignedRequests unsignedWithTrailer;
  static byte[] data;
  static String etag;

  @BeforeAll
  static void start() throws Exception {
    backend = S3Backend.start(work);
    s3 = backend.client();
    s3.createBucket(b -> b.bucket(BUCKET));
    data = new byte[SIZE];
    new Random(7).nextBytes(data);
    etag = s3.putObject(b -> b.bucket(BUCKET).key("plain").contentType("text/plain").cacheControl("max-age=60")
        .metadata(Map.of("owner", "ferry")), RequestBody.fromBytes(data)).eTag().replace("\"", "");
    s3.putObject(b -> b.bucket(BUCKET).key(ODD_KEY), RequestBody.fromBytes(Arrays.copyOf(data, 1000)));
    gets = S3Clients.requests(backend.endpointConfig(), 4, Duration.ofSeconds(30));
    S3EndpointConfig e = backend.endpointConfig();
    withTrailer = S3Clients.requests(e.withChecksumMode(S3EndpointConfig.ChecksumMode.WHEN_SUPPORTED), 4, Duration.ofSeconds(30));
    unsigned = S3Clients.requests(e.withUnsignedPayload(true), 4, Duration.ofSeconds(30));
    unsignedWithTrailer = S3Clients.requests(e.withChecksumMode(S3EndpointConfig.ChecksumMode.WHEN_SUPPORTED).withUnsignedPayload(true), 4,
        Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() throws Exception {
    S3Clients.closeAll();
    backend.close();
  }

  private static byte[] read(String key, ByteRange range, String etag) throws Exception {
    try (InputStream in = gets.get(BUCKET, key, range, etag)) {
      return in.readAllBytes();
    }
  }

  @ParameterizedTest(name = "bytes {0}+{1}")
  @CsvSource({"0, 1", "0, 1048576", "1048575, 1", "1000, 5000", "524288, 524288"})
  void aRangeIsExactlyItsBytes(long offset, long length) throws Exception {
    assertThat(read("plain", new ByteRange(offset, length), etag))
        .isEqualTo(Arrays.copyOfRange(data, (int) offset, (int) (offset + length)));
  }

  @Test
  void keysWithSpacesAndNonAsciiCharactersAreSignedAndFound() throws Exception {
    assertThat(read(ODD_KEY, new ByteRange(10, 990), "")).isEqualTo(Arrays.copyOfRange(data, 10, 1000));
  }

  @Test
  void theAnswerCarriesTheObjectsMetadata() throws Exception {
    try (ResponseBody body = gets.get(BUCKET, "plain", new ByteRange(0, 10), etag)) {
      assertThat(body.header("Content-Type")).contains("text/plain");
      assertThat(body.header("Cache-Control")).contains("max-age=60");
      assertThat(body.userMetadata()).containsEntry("owner", "ferry");
      assertThat(body.readAllBytes()).hasSize(10);
    }
  }

  @Test
  void anOverwrittenObjectFailsItsEtagCheckAndIsNotRetried() {
    assertThatThrownBy(() -> read("plain", new ByteRange(0, 10), "0123456789abcdef0123456789abcdef"))
        .isInstanceOfSatisfying(S3Exception.class, e -> {
          assertThat(e.statusCode()).isEqualTo(412);
          assertThat(S3Errors.isRetryable(e)).isFalse();
        });
  }

  @Test
  void aMissingKeyOrBucketIsTheClientsException() {
    assertThatThrownBy(() -> read("absent", new ByteRange(0, 10), ""))
        .isInstanceOf(NoSuchKeyException.class)
        .satisfies(e -> assertThat(S3Errors.describe(e)).startsWith("NoSuchKey (404)"));
    assertThatThrownBy(() -> gets.get("no-such-bucket", "plain", new ByteRange(0, 10), ""))
        .isInstanceOf(NoSuchBucketException.class);
  }

  @Test
  void aWrongSecretIsSignatureDoesNotMatchAndTheSecretIsNeverInTheMessage() {
    String wrong = "wrong-secret-" + System.nanoTime();
    SignedRequests bad = S3Clients.requests(S3EndpointConfig.withKeys(backend.endpoint(), "us-east-1", backend.identity(), wrong),
        2, Duration.ofSeconds(30));
    assertThatThrownBy(() -> bad.get(BUCKET, "plain", new ByteRange(0, 10), ""))
        .isInstanceOfSatisfying(S3Exception.class, e -> {
          assertThat(e.statusCode()).isEqualTo(403);
          assertThat(S3Errors.isRetryable(e)).isFalse();
          assertThat(S3Errors.describe(e)).startsWith("SignatureDoesNotMatch (403)").doesNotContain(wrong);
          assertThat(e.getMessage()).doesNotContain(wrong);
        });
  }

  @Test
  @Timeout(60)
  void anAbandonedBodyLeavesThePoolUsable() throws Exception {
    for (int i = 0; i < 8; i++) { // twice the pool: an abort that leaked its connection would block here
      ResponseBody body = gets.get(BUCKET, "plain", new ByteRange(0, SIZE), etag);
      assertThat(body.readNBytes(4096)).isEqualTo(Arrays.copyOf(data, 4096));
      body.abort();
      body.close();
    }
    assertThat(read("plain", new ByteRange(SIZE - 100, 100), etag)).isEqualTo(Arrays.copyOfRange(data, SIZE - 100, SIZE));
  }

  @ParameterizedTest(name = "{0} bytes, CRC32 trailer {1}, unsigned over http {2}")
  @CsvSource({"0, false, false", "1, false, false", "131072, false, false", "131073, false, false", "1048576, false, false",
      "300000, true, false", "0, true, false", "1048576, false, true", "300000, true, true", "0, false, true"})
  void aPutStoresExactlyItsBodyWithItsHeaders(int length, boolean trailer, boolean unsignedPayload) throws Exception {
    String key = "put/" + length + "-" + trailer + "-" + unsignedPayload + "/é x";
    SignedRequests requests = unsignedPayload ? (trailer ? unsignedWithTrailer : unsigned) : (trailer ? withTrailer : gets);
    String etag = requests.put(BUCKET, key, Map.of(),
        Map.of("Content-Type", "image/png", "x-amz-meta-origin", "ferry"), new java.io.ByteArrayInputStream(data, 0, length), length);
    var head = s3.headObject(b -> b.bucket(BUCKET).key(key));
    assertThat(head.eTag()).isEqualTo("\"" + etag + "\"");
    assertThat(head.contentType()).isEqualTo("image/png");
    assertThat(head.metadata()).containsEntry("origin", "ferry");
    assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray()).isEqualTo(Arrays.copyOf(data, length));
  }

  @Test
  void partsAndPartCopiesMakeOneObject() throws Exception {
    String key = "multipart/a b";
    byte[] big = new byte[6 << 20];
    new Random(11).nextBytes(big);
    String bigEtag = s3.putObject(b -> b.bucket(BUCKET).key("big"), RequestBody.fromBytes(big)).eTag();
    String upload = s3.createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
    int first = 5 << 20; // the smallest part but the last
    String one = gets.put(BUCKET, key, Map.of("partNumber", "1", "uploadId", upload), Map.of(),
        new java.io.ByteArrayInputStream(big, 0, first), first);
    String two = gets.copy(BUCKET, key, Map.of("partNumber", "2", "uploadId", upload), Map.of("x-amz-copy-source", BUCKET + "/big",
        "x-amz-copy-source-range", new ByteRange(first, big.length - first).httpRange(), "x-amz-copy-source-if-match", bigEtag));
    s3.completeMultipartUpload(b -> b.bucket(BUCKET).key(key).uploadId(upload).multipartUpload(m -> m.parts(
        software.amazon.awssdk.services.s3.model.CompletedPart.builder().partNumber(1).eTag(one).build(),
        software.amazon.awssdk.services.s3.model.CompletedPart.builder().partNumber(2).eTag(two).build())));
    assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray()).isEqualTo(big);
  }

  @Test
  void aCopyCarriesTheSourceAndFailsOnceTheSourceChanged() throws Exception {
    String etagOfCopy = gets.copy(BUCKET, "copies/plain", Map.of(), Map.of("x-amz-copy-source", BUCKET + "/plain",
        "x-amz-metadata-directive", "COPY", "x-amz-copy-source-if-match", "\"" + etag + "\""));
    assertThat(etagOfCopy).isNotEmpty();
    assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("copies/plain")).asByteArray()).isEqualTo(data);
    assertThat(s3.headObject(b -> b.bucket(BUCKET).key("copies/plain")).metadata()).containsEntry("owner", "ferry");
    assertThatThrownBy(() -> gets.copy(BUCKET, "copies/stale", Map.of(), Map.of("x-amz-copy-source", BUCKET + "/plain",
        "x-amz-copy-source-if-match", "\"0123456789abcdef0123456789abcdef\"")))
        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(S3Errors.isRetryable(e)).isFalse());
    assertThat(s3.listObjectsV2(b -> b.bucket(BUCKET).prefix("copies/stale")).keyCount()).isZero();
  }

  @Test
  void aClockTwentyMinutesSlowIsCorrectedFromTheServersAnswer() throws Exception {
    java.time.Clock slow = java.time.Clock.offset(java.time.Clock.systemUTC(), Duration.ofMinutes(-20));
    try (var http = software.amazon.awssdk.http.apache.ApacheHttpClient.create()) {
      SignedRequests skewed = new SignedRequests(http, software.amazon.awssdk.services.s3.S3Utilities.builder()
          .region(software.amazon.awssdk.regions.Region.US_EAST_1).endpoint(java.net.URI.create(backend.endpoint()))
          .s3Configuration(software.amazon.awssdk.services.s3.S3Configuration.builder().pathStyleAccessEnabled(true).build()).build(),
          new SigV4(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
              software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(backend.identity(), backend.secret())), "us-east-1",
              false, false, slow));
      assertThatThrownBy(() -> skewed.get(BUCKET, "plain", new ByteRange(0, 10), etag))
          .isInstanceOfSatisfying(S3Exception.class, e -> {
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("RequestTimeTooSkewed");
            assertThat(S3Errors.isRetryable(e)).isTrue();
          });
      try (InputStream in = skewed.get(BUCKET, "plain", new ByteRange(0, 10), etag)) { // the retry is signed with the server's time
        assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOf(data, 10));
      }
    }
  }

  @Test
  void anEmptyBodyLeavesItsConnectionUsable() throws Exception {
    // S3Proxy closed the connection after an empty aws-chunked body: the next PUT on it broke (21 times in 30)
    for (int i = 0; i < 10; i++) {
      gets.put(BUCKET, "empty/" + i, Map.of(), Map.of(), InputStream.nullInputStream(), 0);
      gets.put(BUCKET, "after-empty/" + i, Map.of(), Map.of(), new java.io.ByteArrayInputStream(data, 0, 1), 1);
    }
    assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("empty/9")).asByteArray()).isEmpty();
  }
}
