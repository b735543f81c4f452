package io.ferry.store.s3.http;

import io.ferry.store.limits.ThreadBuffers;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.http.Header;
import org.apache.http.HttpEntity;
import org.apache.http.HttpException;
import org.apache.http.HttpHost;
import org.apache.http.HttpRequest;
import org.apache.http.auth.AuthScope;
import org.apache.http.auth.UsernamePasswordCredentials;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpEntityEnclosingRequestBase;
import org.apache.http.client.methods.HttpRequestBase;
import org.apache.http.config.RegistryBuilder;
import org.apache.http.config.SocketConfig;
import org.apache.http.conn.socket.ConnectionSocketFactory;
import org.apache.http.conn.socket.PlainConnectionSocketFactory;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.apache.http.entity.AbstractHttpEntity;
import org.apache.http.impl.client.BasicCredentialsProvider;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClientBuilder;
import org.apache.http.impl.conn.DefaultRoutePlanner;
import org.apache.http.impl.conn.DefaultSchemePortResolver;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.apache.http.protocol.HttpContext;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullResponse;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.apache.ProxyConfiguration;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * The HTTP transport of the bulk requests ({@link SignedRequests}): Apache HttpClient 4.5, configured as the SDK's
 * own Apache client configures it (pool, timeouts, 100-continue, no retries, redirects, cookies, compression or URI
 * normalisation, the proxy the SDK resolves from system properties and environment), with one difference that
 * matters for throughput. The SDK's client
 * sends a request body through httpcore's {@code InputStreamEntity}, which copies it in 4 KiB reads, so an upload goes
 * to the socket in 8 KiB writes and, streamed from a GET, reads the GET's socket 8 KiB at a time too. Here a body is
 * copied in reads and writes of up to {@link #COPY_BUFFER}, which costs both ends far less. The Host header sent is
 * the one signed.
 */
public final class BulkHttpClient implements SdkHttpClient {
  public static final int COPY_BUFFER = 256 << 10;

  private final PoolingHttpClientConnectionManager pool;
  private final CloseableHttpClient client;

  /** @param tls the factory of https connections (a lazy one for an http endpoint: {@code S3Clients.lazyTls}) */
  public BulkHttpClient(int maxConnections, Duration connectTimeout, Duration socketTimeout, ConnectionSocketFactory tls) {
    pool = new PoolingHttpClientConnectionManager(RegistryBuilder.<ConnectionSocketFactory>create()
        .register("http", PlainConnectionSocketFactory.getSocketFactory())
        .register("https", tls != null ? tls : SSLConnectionSocketFactory.getSystemSocketFactory())
        .build(), null, null, null, -1, TimeUnit.MILLISECONDS); // no time to live, as the SDK's pool
    pool.setMaxTotal(maxConnections);
    pool.setDefaultMaxPerRoute(maxConnections);
    pool.setDefaultSocketConfig(SocketConfig.custom().setSoTimeout(millis(socketTimeout)).setTcpNoDelay(true).build());
    HttpClientBuilder builder = HttpClientBuilder.create()
        .setConnectionManager(pool)
        .setDefaultRequestConfig(RequestConfig.custom()
            .setConnectTimeout(millis(connectTimeout))
            .setSocketTimeout(millis(socketTimeout))
            .setConnectionRequestTimeout((int) TimeUnit.MINUTES.toMillis(5))
            // as the SDK's client: the path goes as signed (Apache would drop empty segments: "a//b" signed, "a/b" sent),
            // and a PUT with a body asks "Expect: 100-continue", so an error answer (403, NoSuchUpload, SlowDown) comes
            // before the body instead of as a broken pipe in the middle of it
            .setNormalizeUri(false)
            .setExpectContinueEnabled(true)
            .setRedirectsEnabled(false)
            .setContentCompressionEnabled(false)
            .build())
        .disableAutomaticRetries()
        .disableRedirectHandling()
        .disableCookieManagement()
        .disableContentCompression()
        .evictIdleConnections(60, TimeUnit.SECONDS);
    ProxyConfiguration proxy = ProxyConfiguration.builder().build(); // what the SDK's client would use
    ProxyRoutePlanner planner = ProxyRoutePlanner.of(proxy);
    if (planner != null) {
      builder.setRoutePlanner(planner);
      if (proxy.username() != null) {
        BasicCredentialsProvider credentials = new BasicCredentialsProvider();
        credentials.setCredentials(new AuthScope(planner.proxy), new UsernamePasswordCredentials(proxy.username(), proxy.password()));
        builder.setDefaultCredentialsProvider(credentials);
      }
    }
    client = builder.build();
  }

  private static int millis(Duration d) {
    return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    HttpRequestBase apache = apacheRequest(request.httpRequest(), request.contentStreamProvider().orElse(null));
    return new ExecutableHttpRequest() {
      @Override
      public HttpExecuteResponse call() throws IOException {
        return execute(apache);
      }

      @Override
      public void abort() {
        apache.abort();
      }
    };
  }

  /**
   * The Apache request for {@code request}: its headers as signed (Content-Length becomes the entity's length, which
   * Apache writes itself); PUT and POST always carry an entity (Content-Length: 0 without a body), as the SDK's
   * client sends them.
   */
  public static HttpRequestBase apacheRequest(SdkHttpRequest request, ContentStreamProvider body) {
    String method = request.method().name();
    URI uri = uri(request);
    boolean enclosing = body != null || request.method() == SdkHttpMethod.PUT || request.method() == SdkHttpMethod.POST;
    HttpRequestBase apache;
    if (enclosing) {
      HttpEntityEnclosingRequestBase withBody = new HttpEntityEnclosingRequestBase() {
        @Override
        public String getMethod() {
          return method;
        }
      };
      long length = request.firstMatchingHeader("Content-Length").map(Long::parseLong).orElse(body == null ? 0L : -1L);
      withBody.setEntity(new BodyEntity(body, length));
      apache = withBody;
    } else {
      apache = new HttpRequestBase() {
        @Override
        public String getMethod() {
          return method;
        }
      };
    }
    apache.setURI(uri);
    request.forEachHeader((name, values) -> {
      if (name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")) return;
      for (String value : values) apache.addHeader(name, value);
    });
    return apache;
  }

  /**
   * The request's URI, with "//" in its path sent as "/%2F" as the SDK's client sends it (a URI parser reads "//" as
   * the start of an authority; S3 decodes "%2F" to "/").
   */
  public static URI uri(SdkHttpRequest request) {
    String path = request.encodedPath();
    if (!path.contains("//")) return request.getUri();
    String port = SdkHttpUtils.isUsingStandardPort(request.protocol(), request.port()) ? "" : ":" + request.port();
    String query = request.encodedQueryParameters().map(q -> "?" + q).orElse("");
    return URI.create(request.protocol() + "://" + request.host() + port + path.replace("//", "/%2F") + query);
  }

  private HttpExecuteResponse execute(HttpRequestBase apache) throws IOException {
    CloseableHttpResponse response = client.execute(apache);
    try {
      SdkHttpFullResponse.Builder head = SdkHttpFullResponse.builder()
          .statusCode(response.getStatusLine().getStatusCode())
          .statusText(response.getStatusLine().getReasonPhrase());
      for (Header h : response.getAllHeaders()) head.appendHeader(h.getName(), h.getValue());
      HttpEntity entity = response.getEntity();
      AbortableInputStream body = entity == null ? null : AbortableInputStream.create(entity.getContent(), apache::abort);
      return HttpExecuteResponse.builder().response(head.build()).responseBody(body).build();
    } catch (IOException | RuntimeException e) {
      apache.abort(); // the connection is not given back half-read
      throw e;
    }
  }

  @Override
  public void close() {
    try {
      client.close();
    } catch (IOException e) {
      // closing anyway
    }
    pool.close();
  }

  @Override
  public String clientName() {
    return "ferry-bulk";
  }

  /** A request body copied to the connection in reads and writes of up to {@link #COPY_BUFFER} bytes; sent once. */
  public static final class BodyEntity extends AbstractHttpEntity {
    private static final ThreadBuffers BUFFERS = new ThreadBuffers();
    private final ContentStreamProvider body;
    private final long length;

    public BodyEntity(ContentStreamProvider body, long length) {
      this.body = body;
      this.length = length;
      setChunked(length < 0);
    }

    @Override
    public boolean isRepeatable() {
      return false;
    }

    @Override
    public long getContentLength() {
      return length;
    }

    @Override
    public InputStream getContent() {
      return body == null ? InputStream.nullInputStream() : body.newStream();
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
      if (body == null || length == 0) return;
      // Closed only once sent: closing a GET body part-read drains it (up to a part), so a failed upload leaves its
      // source to the caller, which aborts it.
      InputStream in = body.newStream();
      byte[] buffer = BUFFERS.get(COPY_BUFFER);
      long remaining = length < 0 ? Long.MAX_VALUE : length;
      while (remaining > 0) {
        int n = fill(in, buffer, (int) Math.min(buffer.length, remaining));
        if (n == 0) {
          if (length >= 0) throw new IOException("the request body ended " + remaining + " bytes short of its " + length);
          break;
        }
        out.write(buffer, 0, n);
        remaining -= n;
      }
      in.close();
    }

    /** Reads until {@code len} bytes or the end of the stream, whatever each read returns; the count read. */
    private static int fill(InputStream in, byte[] buffer, int len) throws IOException {
      int n = 0;
      while (n < len) {
        int r = in.read(buffer, n, len - n);
        if (r < 0) break;
        n += r;
      }
      return n;
    }

    @Override
    public boolean isStreaming() {
      return true;
    }
  }

  /**
   * Requests through the proxy the SDK's client would use, but for hosts matching one of its non-proxy patterns
   * (regular expressions: the SDK turns a {@code *} of {@code NO_PROXY} or {@code http.nonProxyHosts} into
   * {@code .*?}), compared as the SDK's own route planner compares them.
   */
  public static final class ProxyRoutePlanner extends DefaultRoutePlanner {
    public final HttpHost proxy;
    private final Set<String> direct;

    public ProxyRoutePlanner(HttpHost proxy, Set<String> nonProxyHosts) {
      super(DefaultSchemePortResolver.INSTANCE);
      this.proxy = proxy;
      this.direct = nonProxyHosts;
    }

    /** The planner for the SDK's proxy settings; null where they name no proxy. */
    public static ProxyRoutePlanner of(ProxyConfiguration proxy) {
      if (proxy.host() == null || proxy.port() <= 0) return null;
      return new ProxyRoutePlanner(new HttpHost(proxy.host(), proxy.port(), proxy.scheme()), proxy.nonProxyHosts());
    }

    @Override
    protected HttpHost determineProxy(HttpHost target, HttpRequest request, HttpContext context) throws HttpException {
      return usesProxy(target.getHostName()) ? proxy : null;
    }

    public boolean usesProxy(String host) {
      String h = host.toLowerCase(Locale.ROOT);
      return direct.stream().noneMatch(pattern -> h.matches(pattern));
    }
  }
}
