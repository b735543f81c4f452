package io.ferry.source;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.http.HttpHost;
import org.apache.http.conn.socket.ConnectionSocketFactory;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.apache.http.protocol.HttpContext;

/**
 * The TLS socket factory of a client whose endpoint is plain http: built only if a TLS connection is ever asked for
 * (then Apache HttpClient's default, {@link SSLConnectionSocketFactory#getSocketFactory}: a TLS context with the JDK's
 * trust store and host name verification, without the SDK's TLS options, which no http endpoint sets).
 * The SDK's HTTP client otherwise sets up a TLS context for every client it builds, whatever the endpoint's scheme:
 * loading the JDK's trust store took 16 of 53 profiler samples of building the listing's client (JFR, a plan run).
 */
final class LazyTlsSocketFactory implements ConnectionSocketFactory {
  private volatile ConnectionSocketFactory tls;

  private ConnectionSocketFactory tls() {
    ConnectionSocketFactory factory = tls;
    if (factory == null) {
      synchronized (this) {
        if (tls == null) tls = SSLConnectionSocketFactory.getSocketFactory();
        factory = tls;
      }
    }
    return factory;
  }

  @Override
  public Socket createSocket(HttpContext context) throws IOException {
    return tls().createSocket(context);
  }

  @Override
  public Socket connectSocket(int connectTimeout, Socket socket, HttpHost host, InetSocketAddress remoteAddress,
      InetSocketAddress localAddress, HttpContext context) throws IOException {
    return tls().connectSocket(connectTimeout, socket, host, remoteAddress, localAddress, context);
  }
}
