package io.ferry.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

/**
 * A real S3-compatible server (S3Proxy 4.1.0, filesystem backend, SigV4) in its own JVM on loopback: what the demo
 * and the tests copy from. A child JVM keeps its Jetty and Servlet API off Spark's classpath (Spark brings Servlet 5,
 * S3Proxy needs 6) and is closer to a real deployment than an in-process server.
 */
public final class S3ProxyProcess implements AutoCloseable {
  /** Where Maven puts the server jar ({@code mvn package}); overridden by {@code -Dferry.s3proxy.jar}. */
  public static final String DEFAULT_JAR = "target/s3proxy/s3proxy.jar";

  /** A TLS endpoint besides the plain one: the server's key store (PKCS12) and its password. */
  public record Tls(Path keyStore, String password) {}

  private final Process process;
  private final int port;
  private int securePort = -1;
  private final String identity;
  private final String credential;
  private final Path log;

  private S3ProxyProcess(Process process, int port, String identity, String credential, Path log) {
    this.process = process;
    this.port = port;
    this.identity = identity;
    this.credential = credential;
    this.log = log;
  }

  /** The server process's CPU time so far (every thread, user and kernel), in seconds; 0 where the platform keeps none. */
  public double cpuSeconds() {
    return process.toHandle().info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(0.0);
  }

  public static Path jar() {
    Path jar = Path.of(System.getProperty("ferry.s3proxy.jar", DEFAULT_JAR));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("S3Proxy jar not found at " + jar + ": run 'mvn -DskipTests package' first");
    }
    return jar;
  }

  /** Starts a server storing objects under {@code dataDirectory}, on a free loopback port, and waits until it answers. */
  public static S3ProxyProcess start(Path dataDirectory, String identity, String credential) throws IOException {
    return start(dataDirectory, identity, credential, "filesystem-nio2");
  }

  /**
   * As {@link #start(Path, String, String)}, with a jclouds backend: {@code filesystem-nio2} (objects as files) or
   * {@code transient-nio2} (in memory). A null {@code identity} starts it without authentication.
   */
  public static S3ProxyProcess start(Path dataDirectory, String identity, String credential, String backend) throws IOException {
    return start(dataDirectory, identity, credential, backend, null);
  }

  /** As {@link #start(Path, String, String, String)}, with an https endpoint too when {@code tls} is given. */
  public static S3ProxyProcess start(Path dataDirectory, String identity, String credential, String backend, Tls tls) throws IOException {
    Files.createDirectories(dataDirectory);
    return ChildServers.firstThatAnswers(() -> {
      int port = freePort();
      Path properties = dataDirectory.resolveSibling(dataDirectory.getFileName() + ".s3proxy.properties");
      Properties p = new Properties();
      p.setProperty("s3proxy.endpoint", "http://127.0.0.1:" + port);
      if (identity == null) {
        p.setProperty("s3proxy.authorization", "none"); // a stand-in for services that authorize by other means (IAM tokens)
      } else {
        p.setProperty("s3proxy.authorization", "aws-v2-or-v4");
        p.setProperty("s3proxy.identity", identity);
        p.setProperty("s3proxy.credential", credential);
      }
      int securePort = tls == null ? -1 : freePort();
      if (tls != null) {
        p.setProperty("s3proxy.secure-endpoint", "https://127.0.0.1:" + securePort);
        p.setProperty("s3proxy.keystore-path", tls.keyStore().toAbsolutePath().toString());
        p.setProperty("s3proxy.keystore-password", tls.password());
      }
      p.setProperty("jclouds.provider", backend);
      p.setProperty("jclouds.filesystem.basedir", dataDirectory.toAbsolutePath().toString());
      try (var out = Files.newOutputStream(properties)) {
        p.store(out, "S3Proxy for Ferry");
      }
      Path log = dataDirectory.resolveSibling(dataDirectory.getFileName() + ".s3proxy.log");
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Process process = new ProcessBuilder(List.of(java, "-Xmx" + System.getProperty("ferry.s3proxy.heap", "512m"), "-DLOG_LEVEL="
          + System.getProperty("ferry.s3proxy.log-level", "warn"), "-jar", jar().toString(),
          "--properties", properties.toAbsolutePath().toString()))
          .redirectErrorStream(true)
          .redirectOutput(log.toFile())
          .start();
      S3ProxyProcess server = new S3ProxyProcess(process, port, identity, credential, log);
      server.securePort = securePort;
      return server;
    }, server -> server.awaitReady(Duration.ofSeconds(60)), S3ProxyProcess::close);
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** The https endpoint, when started with {@link Tls}. */
  public String secureEndpoint() {
    if (securePort < 0) throw new IllegalStateException("started without TLS");
    return "https://127.0.0.1:" + securePort;
  }

  public int port() {
    return port;
  }

  public String identity() {
    return identity;
  }

  public String credential() {
    return credential;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  private void awaitReady(Duration timeout) throws IOException {
    // any status, 403 without credentials among them: it is up and checking signatures
    ChildServers.awaitAnswer("S3Proxy", process, endpoint() + "/", code -> code > 0, timeout, log);
  }


  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 0, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    ChildServers.stop(process);
  }

}
