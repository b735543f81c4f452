package io.ferry.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.http.HttpEntityEnclosingRequest;
import org.apache.http.HttpHost;
import org.apache.http.client.methods.HttpRequestBase;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;

class BulkHttpClientTest {
  private static SdkHttpRequest request(SdkHttpMethod method, String contentLength) {
    SdkHttpRequest.Builder b = SdkHttpRequest.builder().method(method).uri(URI.create("http://127.0.0.1:9000/bucket/a%20key"))
        .putRawQueryParameter("partNumber", "3").putHeader("Host", "127.0.0.1:9000").putHeader("x-amz-date", "20261130T000000Z");
    if (contentLength != null) b.putHeader("Content-Length", contentLength);
    return b.build();
  }

  @Test
  void aGetHasNoEntityAndKeepsItsSignedHeadersAndUri() {
    HttpRequestBase get = BulkHttpClient.apacheRequest(request(SdkHttpMethod.GET, null), null);

    assertThat(get).isNotInstanceOf(HttpEntityEnclosingRequest.class);
    assertThat(get.getMethod()).isEqualTo("GET");
    assertThat(get.getURI()).hasToString("http://127.0.0.1:9000/bucket/a%20key?partNumber=3");
    assertThat(get.getFirstHeader("Host").getValue()).isEqualTo("127.0.0.1:9000"); // the Host that was signed
    assertThat(get.getFirstHeader("x-amz-date").getValue()).isEqualTo("20261130T000000Z");
  }

  @Test
  void aPutWithoutBodyCarriesAnEmptyEntityAndContentLengthBecomesTheEntitysLength() {
    HttpRequestBase copy = BulkHttpClient.apacheRequest(request(SdkHttpMethod.PUT, null), null);
    assertThat(((HttpEntityEnclosingRequest) copy).getEntity().getContentLength()).isZero();

    ContentStreamProvider body = () -> new ByteArrayInputStream(new byte[5]);
    HttpRequestBase put = BulkHttpClient.apacheRequest(request(SdkHttpMethod.PUT, "5"), body);
    assertThat(((HttpEntityEnclosingRequest) put).getEntity().getContentLength()).isEqualTo(5);
    assertThat(put.getFirstHeader("Content-Length")).isNull(); // Apache writes it from the entity (it refuses a second)
  }

  @Test
  void aBodyGoesToTheConnectionInLargeWritesByteForByte() throws IOException {
    byte[] bytes = new byte[BulkHttpClient.COPY_BUFFER * 3 + 1000];
    new Random(3).nextBytes(bytes);
    List<Integer> writes = new ArrayList<>();
    ByteArrayOutputStream sent = new ByteArrayOutputStream();
    OutputStream recording = new OutputStream() {
      @Override
      public void write(int b) {
        writes.add(1);
        sent.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        writes.add(len);
        sent.write(b, off, len);
      }
    };
    // a source that hands out at most 4 KiB per read, as a socket or the SDK's streams may
    ContentStreamProvider body = () -> new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 4096));
      }
    };

    new BulkHttpClient.BodyEntity(body, bytes.length).writeTo(recording);

    assertThat(sent.toByteArray()).isEqualTo(bytes);
    assertThat(writes).containsExactly(BulkHttpClient.COPY_BUFFER, BulkHttpClient.COPY_BUFFER, BulkHttpClient.COPY_BUFFER, 1000);
  }

  @Test
  void aBodyShorterThanItsContentLengthFailsInsteadOfLeavingTheServerWaiting() {
    ContentStreamProvider body = () -> new ByteArrayInputStream(new byte[10]);
    assertThatThrownBy(() -> new BulkHttpClient.BodyEntity(body, 15).writeTo(OutputStream.nullOutputStream()))
        .isInstanceOf(IOException.class).hasMessageContaining("5 bytes short of its 15");
  }

  @Test
  void hostsMatchingANonProxyPatternGoDirect() {
    var planner = new BulkHttpClient.ProxyRoutePlanner(new HttpHost("proxy.corp", 3128), Set.of("*.internal", "localhost", "10.0.*"));

    assertThat(planner.usesProxy("s3.us-east-1.amazonaws.com")).isTrue();
    assertThat(planner.usesProxy("minio.internal")).isFalse();
    assertThat(planner.usesProxy("MINIO.Internal")).isFalse();
    assertThat(planner.usesProxy("localhost")).isFalse();
    assertThat(planner.usesProxy("10.0.3.4")).isFalse();
    assertThat(planner.usesProxy("internal.example.com")).isTrue();
    assertThat(planner.usesProxy("10x0x3")).isTrue(); // a dot in a pattern is a dot, not any character
  }
}
