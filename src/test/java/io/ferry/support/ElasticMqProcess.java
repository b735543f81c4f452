package io.ferry.support;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * ElasticMQ, a server of the SQS API (its jars from Maven Central, copied by {@code mvn pre-integration-test}), in its own
 * JVM on loopback: the queue a delta pass reads S3 event notifications from. It takes any credentials.
 */
public final class ElasticMqProcess implements AutoCloseable {
  /** Where Maven puts the server's jars; overridden by {@code -Dferry.elasticmq.lib}. */
  public static final String DEFAULT_LIB = "target/elasticmq";

  private final Process process;
  private final int port;
  private final Path log;

  private ElasticMqProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** Starts a server on a free loopback port, its config and log under {@code dir}, and waits until it answers. */
  public static ElasticMqProcess start(Path dir) throws IOException {
    Path lib = Path.of(System.getProperty("ferry.elasticmq.lib", DEFAULT_LIB));
    if (!Files.isDirectory(lib)) {
      throw new IllegalStateException("ElasticMQ's jars not found in " + lib + ": run 'mvn pre-integration-test' first");
    }
    Files.createDirectories(dir);
    return ChildServers.firstThatAnswers(() -> {
      int port = S3ProxyProcess.freePort();
      Path conf = dir.resolve("elasticmq-" + port + ".conf");
      Files.writeString(conf, """
          include classpath("application.conf")
          node-address { protocol = http, host = "127.0.0.1", port = %d, context-path = "" }
          rest-sqs { enabled = true, bind-port = %d, bind-hostname = "127.0.0.1", sqs-limits = strict }
          rest-stats { enabled = false }
          generate-node-address = false
          """.formatted(port, port));
      Path log = dir.resolve("elasticmq-" + port + ".log");
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Process process = new ProcessBuilder(List.of(java, "-Xmx256m", "-Dconfig.file=" + conf, "-cp", lib.toAbsolutePath() + "/*",
          "org.elasticmq.server.Main")).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      return new ElasticMqProcess(process, port, log);
    }, server -> ChildServers.awaitAnswer("ElasticMQ", server.process, server.endpoint() + "/?Action=ListQueues", code -> code == 200,
        Duration.ofSeconds(60), server.log), ElasticMqProcess::close);
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** A client of this server, as a test's writer of events. */
  public SqsClient client() {
    return SqsClient.builder().endpointOverride(URI.create(endpoint())).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "y")))
        .build();
  }

  /** A new queue, its messages held {@code visibility} when a receive names no hold: its URL. */
  public String createQueue(String name, Duration visibility) {
    try (SqsClient sqs = client()) {
      return sqs.createQueue(r -> r.queueName(name).attributes(java.util.Map.of(QueueAttributeName.VISIBILITY_TIMEOUT,
          Long.toString(visibility.toSeconds())))).queueUrl();
    }
  }

  @Override
  public void close() {
    ChildServers.stop(process);
  }
}
