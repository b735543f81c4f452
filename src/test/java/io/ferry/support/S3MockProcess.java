package io.ferry.support;

import io.ferry.config.S3EndpointConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Adobe S3Mock (its {@code exec} jar from Maven Central) in its own JVM on loopback: the test server for what S3Proxy
 * does not implement (tags, storage classes, Content-Language and Expires, versions, ACLs, Object Lock). It reads
 * SigV4 requests but checks no signature, so tests of signing stay on S3Proxy.
 */
public final class S3MockProcess implements AutoCloseable {
  /** Where Maven puts the server jar ({@code mvn generate-resources}); overridden by {@code -Dferry.s3mock.jar}. */
  public static final String DEFAULT_JAR = "target/s3proxy/s3mock.jar";

  private final Process process;
  private final int port;
  private final Path log;

  private S3MockProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** Starts a server keeping its objects under {@code root}, on a free loopback port, and waits until it answers. */
  public static S3MockProcess start(Path root) throws IOException {
    Path jar = Path.of(System.getProperty("ferry.s3mock.jar", DEFAULT_JAR));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("S3Mock jar not found at " + jar + ": run 'mvn -DskipTests package' first");
    }
    Files.createDirectories(root);
    return ChildServers.firstThatAnswers(() -> {
      int port = S3ProxyProcess.freePort();
      int management = S3ProxyProcess.freePort();
      Path log = root.resolveSibling(root.getFileName() + ".s3mock.log");
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Process process = new ProcessBuilder(List.of(java, "-Xmx384m", "-jar", jar.toString(), "--http.port=" + port,
          "--com.adobe.testing.s3mock.httpPort=" + port, "--server.port=" + management, "--server.address=127.0.0.1",
          "--com.adobe.testing.s3mock.store.root=" + root.toAbsolutePath(), "--logging.level.root=warn"))
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
      return new S3MockProcess(process, port, log);
    }, server -> server.awaitReady(Duration.ofSeconds(90)), S3MockProcess::close);
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** Keys of its own: S3Mock takes any. */
  public S3EndpointConfig endpointConfig() {
    return S3EndpointConfig.withKeys(endpoint(), "us-east-1", "s3mock-identity", "s3mock-secret-unchecked");
  }

  public S3Client client() {
    return TestS3.client(endpointConfig());
  }

  private void awaitReady(Duration timeout) throws IOException {
    ChildServers.awaitAnswer("S3Mock", process, endpoint() + "/", code -> code == 200, timeout, log);
  }

  @Override
  public void close() {
    ChildServers.stop(process);
  }
}
