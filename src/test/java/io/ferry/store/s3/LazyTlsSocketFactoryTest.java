package io.ferry.store.s3;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLException;
import org.apache.http.HttpHost;
import org.apache.http.protocol.BasicHttpContext;
import org.junit.jupiter.api.Test;

class LazyTlsSocketFactoryTest {
  @Test
  void aConnectionAskedOfAnHttpEndpointsClientForHttpsStillStartsTls() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread plain = new Thread(() -> {
        try (Socket s = server.accept(); OutputStream out = s.getOutputStream()) {
          out.write("HTTP/1.1 400 not TLS\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        } catch (Exception e) {
          // the client gave up
        }
      });
      plain.start();
      LazyTlsSocketFactory factory = new LazyTlsSocketFactory();
      BasicHttpContext context = new BasicHttpContext();
      InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
      // a plain-text answer to a TLS client hello: the handshake fails, so TLS was attempted
      assertThatThrownBy(() -> factory.connectSocket(5_000, factory.createSocket(context),
          new HttpHost("localhost", server.getLocalPort(), "https"), address, null, context)).isInstanceOf(SSLException.class);
      plain.join(5_000);
    }
  }

  @Test
  void onlyPlainHttpEndpointsDeferTheirTlsSetUp() {
    org.assertj.core.api.Assertions.assertThat(S3Clients.lazyTls("http://127.0.0.1:9000")).isNotNull();
    org.assertj.core.api.Assertions.assertThat(S3Clients.lazyTls("HTTP://minio.local")).isNotNull();
    org.assertj.core.api.Assertions.assertThat(S3Clients.lazyTls("https://s3.eu-de.cloud-object-storage.appdomain.cloud")).isNull();
    org.assertj.core.api.Assertions.assertThat(S3Clients.lazyTls("")).isNull(); // AWS S3: https
  }
}
