package io.ferry.store.s3;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.http.HttpHost;
import org.apache.http.conn.socket.ConnectionSocketFactory;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.apache.http.protocol.HttpContext;

/**
 * The TLS socket factory of a client whose endpoint is plain http: built only if a TLS connection is ever asked for
 * (then Apache HttpClient's system default, {@link SSLConnectionSocketFactory#getSystemSocketFactory}: the JDK's
 * default TLS context, which follows the {@code javax.net.ssl} trust and key store properties, and host name
 * verification).
 * The SDK's HTTP client otherwise sets up a TLS context for every client it builds, whatever the endpoint's scheme,
 * and loading the JDK's trust store is most of building a client.
 */
final class LazyTlsSocketFactory implements ConnectionSocketFactory {
  private volatile ConnectionSocketFactory tls;

  private ConnectionSocketFactory tls() {
    ConnectionSocketFactory factory = tls;
    if (factory == null) {
      synchronized (this) {
        if (tls == null) tls = SSLConnectionSocketFactory.getSystemSocketFactory();
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
