package io.ferry.store.s3.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.http.HttpEntityEnclosingRequest;
import org.apache.http.HttpHost;
import org.apache.http.client.methods.HttpRequestBase;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.apache.ProxyConfiguration;

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
  void aPathWithAnEmptySegmentIsSentAsTheSdkSendsIt() {
    SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.GET)
        .uri(URI.create("http://127.0.0.1:9000/bucket/a//b")).putRawQueryParameter("x-id", "GetObject").build();

    assertThat(BulkHttpClient.uri(request)).hasToString("http://127.0.0.1:9000/bucket/a/%2Fb?x-id=GetObject");
    assertThat(BulkHttpClient.uri(request(SdkHttpMethod.GET, null))).hasToString("http://127.0.0.1:9000/bucket/a%20key?partNumber=3");
  }

  @Test
  void hostsMatchingANonProxyPatternOfTheSdksSettingsGoDirect() {
    Map<String, String> properties = Map.of("http.proxyHost", "proxy.corp", "http.proxyPort", "3128",
        "http.nonProxyHosts", "*.internal|localhost|10.0.*");
    properties.forEach(System::setProperty);
    try {
      BulkHttpClient.ProxyRoutePlanner planner = BulkHttpClient.ProxyRoutePlanner.of(ProxyConfiguration.builder().build());

      assertThat(planner.proxy).isEqualTo(new HttpHost("proxy.corp", 3128, "http"));
      assertThat(planner.usesProxy("s3.us-east-1.amazonaws.com")).isTrue();
      assertThat(planner.usesProxy("minio.internal")).isFalse();
      assertThat(planner.usesProxy("MINIO.Internal")).isFalse();
      assertThat(planner.usesProxy("localhost")).isFalse();
      assertThat(planner.usesProxy("10.0.3.4")).isFalse();
      assertThat(planner.usesProxy("internal.example.com")).isTrue();
    } finally {
      properties.keySet().forEach(System::clearProperty);
    }
    assertThat(BulkHttpClient.ProxyRoutePlanner.of(ProxyConfiguration.builder().useEnvironmentVariableValues(false).build())).isNull();
  }

  /**
   * Real requests on a loopback HTTP server that records what arrives (the write sizes are
   * {@link #aBodyGoesToTheConnectionInLargeWritesByteForByte}'s: a socket's reads may join small writes): a PUT with a
   * body asks 100-continue, one without does not ask, a GET neither; all three go on one connection; a body abandoned
   * half-read closes its connection instead of draining it.
   */
  @Test
  void requestsOnARealConnection() throws Exception {
    try (RecordingServer server = new RecordingServer(); BulkHttpClient client = new BulkHttpClient(4, Duration.ofSeconds(5),
        Duration.ofSeconds(5), null)) {
      String base = "http://127.0.0.1:" + server.port();
      byte[] bytes = new byte[3 << 20];
      new Random(5).nextBytes(bytes);
      HttpExecuteResponse put = client.prepareRequest(HttpExecuteRequest.builder()
          .request(SdkHttpRequest.builder().method(SdkHttpMethod.PUT).uri(URI.create(base + "/b/k"))
              .putHeader("Host", "127.0.0.1:" + server.port()).putHeader("Content-Length", Integer.toString(bytes.length)).build())
          .contentStreamProvider(() -> new ByteArrayInputStream(bytes)).build()).call();
      put.responseBody().orElseThrow().close();
      HttpExecuteResponse copy = client.prepareRequest(HttpExecuteRequest.builder()
          .request(SdkHttpRequest.builder().method(SdkHttpMethod.PUT).uri(URI.create(base + "/b/k2")).build()).build()).call();
      copy.responseBody().orElseThrow().close();
      HttpExecuteResponse get = client.prepareRequest(HttpExecuteRequest.builder()
          .request(SdkHttpRequest.builder().method(SdkHttpMethod.GET).uri(URI.create(base + "/b/k")).build()).build()).call();
      var body = get.responseBody().orElseThrow();
      assertThat(body.readNBytes(100)).isEqualTo(Arrays.copyOf(bytes, 100));
      body.abort();

      assertThat(server.heads).hasSize(3);
      assertThat(server.heads.get(0)).startsWith("PUT /b/k HTTP/1.1").containsIgnoringCase("expect: 100-continue")
          .contains("Host: 127.0.0.1:" + server.port()).contains("Content-Length: " + bytes.length);
      assertThat(server.bodies.get(0)).isEqualTo(bytes);
      assertThat(server.heads.get(1)).startsWith("PUT /b/k2 HTTP/1.1").doesNotContainIgnoringCase("expect:").contains("Content-Length: 0");
      assertThat(server.heads.get(2)).startsWith("GET /b/k HTTP/1.1").doesNotContainIgnoringCase("expect:");
      assertThat(server.connections.get()).isEqualTo(1);
      // the abandoned GET's connection was closed by the client long before its 3 MiB were read
      assertThat(server.getEndedEarly.await(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  /** A one-thread HTTP/1.1 server: answers 100 Continue where asked, keeps every request's head and body. */
  private static final class RecordingServer implements AutoCloseable {
    final ServerSocket socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
    final List<String> heads = new CopyOnWriteArrayList<>();
    final List<byte[]> bodies = new CopyOnWriteArrayList<>();
    final AtomicInteger connections = new AtomicInteger();
    final CountDownLatch getEndedEarly = new CountDownLatch(1);
    private volatile byte[] stored = new byte[0];

    RecordingServer() throws IOException {
      Thread t = new Thread(this::serve, "recording-server");
      t.setDaemon(true);
      t.start();
    }

    int port() {
      return socket.getLocalPort();
    }

    private void serve() {
      while (!socket.isClosed()) {
        try (Socket s = socket.accept()) {
          connections.incrementAndGet();
          InputStream in = s.getInputStream();
          OutputStream out = s.getOutputStream();
          for (String head; (head = readHead(in)) != null; ) {
            heads.add(head);
            long length = head.lines().filter(l -> l.toLowerCase(Locale.ROOT).startsWith("content-length:"))
                .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim())).findFirst().orElse(0);
            if (head.toLowerCase(Locale.ROOT).contains("expect: 100-continue")) {
              out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
              out.flush();
            }
            byte[] body = new byte[(int) length];
            for (int n = 0; n < length; ) {
              int r = in.read(body, n, (int) length - n);
              if (r < 0) throw new IOException("short body");
              n += r;
            }
            bodies.add(body);
            if (head.startsWith("GET")) {
              out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + stored.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
              try {
                for (int off = 0; off < stored.length; off += 64 << 10) {
                  out.write(stored, off, Math.min(64 << 10, stored.length - off));
                }
                out.flush();
              } catch (IOException e) {
                getEndedEarly.countDown(); // the client closed the connection while the body was still going
                break;
              }
              // all written into the socket's buffers: the end shows as the client closing (end of stream or a reset,
              // as it closes with bytes unread), where a drained connection would stay open, silent, for reuse
              s.setSoTimeout(5_000);
              try {
                if (in.read() < 0) getEndedEarly.countDown();
              } catch (java.net.SocketTimeoutException e) {
                break;
              } catch (IOException e) {
                getEndedEarly.countDown();
              }
              break;
            }
            if (length > 0) stored = body;
            out.write("HTTP/1.1 200 OK\r\nETag: \"e\"\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
          }
        } catch (IOException e) {
          // the connection ended
        }
      }
    }

    private static String readHead(InputStream in) throws IOException {
      StringBuilder head = new StringBuilder();
      for (int c; (c = in.read()) >= 0; ) {
        head.append((char) c);
        if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) return head.toString();
      }
      return null;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
