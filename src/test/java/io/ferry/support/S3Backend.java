package io.ferry.support;

import io.ferry.config.S3EndpointConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MinIOContainer;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3-compatible server a test talks to over real HTTP with SigV4. By default S3Proxy in a child JVM; with
 * {@code -Dferry.test.backend=minio}, MinIO in a Testcontainers container (skipped, with a message, where no Docker
 * engine exists).
 */
public final class S3Backend implements AutoCloseable {
  private final AutoCloseable server;
  private final String endpoint;
  private final String identity;
  private final String secret;

  private S3Backend(AutoCloseable server, String endpoint, String identity, String secret) {
    this.server = server;
    this.endpoint = endpoint;
    this.identity = identity;
    this.secret = secret;
  }

  public static S3Backend start(Path work) throws Exception {
    return start(work, "filesystem-nio2");
  }

  /** @param s3proxyBackend the jclouds backend when the server is S3Proxy */
  public static S3Backend start(Path work, String s3proxyBackend) throws Exception {
    String backend = System.getProperty("ferry.test.backend", "s3proxy");
    if (backend.equals("minio")) {
      boolean docker;
      try {
        docker = DockerClientFactory.instance().isDockerAvailable();
      } catch (Throwable e) {
        docker = false;
      }
      Assumptions.assumeTrue(docker, "ferry.test.backend=minio needs a Docker engine, and none was found: skipped");
      MinIOContainer minio = new MinIOContainer("minio/minio:RELEASE.2025-09-07T16-13-09Z");
      minio.start();
      return new S3Backend(minio::stop, minio.getS3URL(), minio.getUserName(), minio.getPassword());
    }
    String secret = "test-secret-" + Long.toHexString(System.nanoTime());
    S3ProxyProcess proxy = S3ProxyProcess.start(work.resolve("s3-" + s3proxyBackend), "test-identity", secret, s3proxyBackend);
    return new S3Backend(proxy, proxy.endpoint(), "test-identity", secret);
  }

  /** S3Proxy without authentication: a stand-in for a service reached with IBM IAM bearer tokens. */
  public static S3Backend startWithoutAuthentication(Path work) throws Exception {
    S3ProxyProcess proxy = S3ProxyProcess.start(work.resolve("s3-open"), null, null, "filesystem-nio2");
    return new S3Backend(proxy, proxy.endpoint(), "anonymous", "unused-secret-" + Long.toHexString(System.nanoTime()));
  }

  public String endpoint() {
    return endpoint;
  }

  public String identity() {
    return identity;
  }

  public String secret() {
    return secret;
  }

  public S3EndpointConfig endpointConfig() {
    return endpointConfig(endpoint);
  }

  /** The same credentials at another address (a proxy in front of this server). */
  public S3EndpointConfig endpointConfig(String address) {
    return S3EndpointConfig.withKeys(address, "us-east-1", identity, secret);
  }

  public S3Client client() {
    return identity.equals("anonymous")
        ? S3Client.builder().region(software.amazon.awssdk.regions.Region.US_EAST_1).endpointOverride(java.net.URI.create(endpoint))
            .forcePathStyle(true).credentialsProvider(software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider.create()).build()
        : TestS3.client(endpointConfig());
  }

  @Override
  public void close() throws Exception {
    server.close();
  }
}
