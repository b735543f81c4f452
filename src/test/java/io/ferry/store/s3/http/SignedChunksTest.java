package io.ferry.store.s3.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/** Ferry's streaming-signature encoding against the SDK signer's, byte for byte, at the sizes around a chunk. */
class SignedChunksTest {
  private static final int C = SignedChunks.CHUNK;
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T23:59:58Z"), ZoneOffset.UTC);

  private static SignedRequest signed(String url, byte[] body, boolean trailer, boolean unsigned) {
    return signed(url, body, trailer, unsigned, "eu-de", CLOCK);
  }

  private static SignedRequest signed(String url, byte[] body, boolean trailer, boolean unsigned, String region, Clock clock) {
    SigV4 requests = new SigV4(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKID", "the/secret+key")), region, trailer,
        unsigned, clock);
    SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.PUT).uri(URI.create(url))
        .putHeader("Content-Length", Integer.toString(body.length)).build();
    return requests.sign(request, () -> new ByteArrayInputStream(body), true);
  }

  private static byte[] body(int size) {
    byte[] b = new byte[size];
    new Random(size).nextBytes(b);
    return b;
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {0, 1, C - 1, C, C + 1, 2 * C, 3 * C + 5})
  void sameBytesAsTheSdkSigner(int size) throws IOException {
    byte[] body = body(size);
    SignedRequest signed = signed("http://127.0.0.1:9000/bucket/some%20key", body, false, false);
    byte[] sdk = signed.payload().orElseThrow().newStream().readAllBytes();

    SignedChunks ours = SignedChunks.seed(signed.request().headers(), "the/secret+key").encode(new ByteArrayInputStream(body));
    assertThat(ours).isNotNull();
    byte[] encoded = ours.readAllBytes();
    assertThat(encoded).isEqualTo(sdk);
    assertThat(signed.request().firstMatchingHeader("Content-Length")).contains(Integer.toString(encoded.length));
  }

  @ParameterizedTest(name = "reads of {0} bytes")
  @ValueSource(ints = {1, 7, 1000, 300_000})
  void anyReadSizeGivesTheSameBytes(int readSize) throws IOException {
    byte[] body = body(2 * C + 3);
    SignedRequest signed = signed("http://h:9000/b/k", body, false, false);
    byte[] sdk = signed.payload().orElseThrow().newStream().readAllBytes();
    InputStream ours = SignedChunks.seed(signed.request().headers(), "the/secret+key").encode(new ByteArrayInputStream(body));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[readSize];
    if (readSize == 1) {
      for (int b; (b = ours.read()) >= 0; ) out.write(b);
    } else {
      for (int n; (n = ours.read(buffer, 0, readSize)) > 0; ) out.write(buffer, 0, n);
    }
    assertThat(out.toByteArray()).isEqualTo(sdk);
    assertThat(ours.read()).isEqualTo(-1);
  }

  @ParameterizedTest(name = "trailer {0}, unsigned-payload {1}: the SDK's encoding")
  @CsvSource({"true, false", "false, true", "true, true"})
  void otherFormsAreLeftToTheSdk(boolean trailer, boolean unsigned) {
    SignedRequest signed = signed("http://h:9000/b/k", body(10), trailer, unsigned);
    assertThat(SignedChunks.seed(signed.request().headers(), "the/secret+key")).isNull();
  }

  @org.junit.jupiter.api.Test
  void aShortBodyFailsInsteadOfSendingLessThanSigned() {
    byte[] body = body(C + 10);
    SignedRequest signed = signed("http://h:9000/b/k", body, false, false);
    InputStream ours = SignedChunks.seed(signed.request().headers(), "the/secret+key")
        .encode(new ByteArrayInputStream(body, 0, C + 9));
    assertThatThrownBy(ours::readAllBytes).isInstanceOf(IOException.class).hasMessageContaining("1 bytes short");
  }

  @org.junit.jupiter.api.Test
  void aWrongSecretGivesOtherSignatures() throws IOException {
    byte[] body = body(10);
    SignedRequest signed = signed("http://h:9000/b/k", body, false, false);
    byte[] sdk = signed.payload().orElseThrow().newStream().readAllBytes();
    byte[] wrong = SignedChunks.seed(signed.request().headers(), "another").encode(new ByteArrayInputStream(body)).readAllBytes();
    assertThat(wrong).hasSameSizeAs(sdk).isNotEqualTo(sdk);
  }

  @ParameterizedTest(name = "{0} at {1}")
  @CsvSource({"eu-de, 2026-11-30T23:59:58Z", "eu-de, 2026-12-01T00:00:01Z", "us-east-1, 2026-12-01T00:00:01Z",
      "eu-de, 2026-11-30T23:59:58Z"})
  void theSigningKeyFollowsTheDayAndTheRegion(String region, String time) throws IOException {
    // one after another, as requests go: the cached signing key must not outlive its day or region
    byte[] body = body(C + 1);
    SignedRequest signed = signed("http://h:9000/b/k", body, false, false, region, Clock.fixed(Instant.parse(time), ZoneOffset.UTC));
    byte[] sdk = signed.payload().orElseThrow().newStream().readAllBytes();
    assertThat(SignedChunks.seed(signed.request().headers(), "the/secret+key").encode(new ByteArrayInputStream(body)).readAllBytes())
        .isEqualTo(sdk);
  }

  @org.junit.jupiter.api.Test
  void aSourceThatGivesAFewBytesPerReadKeepsTheChunkBoundaries() throws IOException {
    byte[] body = body(2 * C + 11);
    SignedRequest signed = signed("http://h:9000/b/k", body, false, false);
    byte[] sdk = signed.payload().orElseThrow().newStream().readAllBytes();
    InputStream trickle = new ByteArrayInputStream(body) {
      private int turn;

      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 1 + turn++ % 7));
      }
    };
    assertThat(SignedChunks.seed(signed.request().headers(), "the/secret+key").encode(trickle).readAllBytes()).isEqualTo(sdk);
  }
}
