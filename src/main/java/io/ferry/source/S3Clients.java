package io.ferry.source;

import io.ferry.config.S3EndpointConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * One S3 client per JVM per endpoint setting, built lazily where it is used (driver or executor) and never
 * serialized. The SDK's own retries are off: {@code RangeCopier} is the one retry layer, so attempts are counted
 * once and a retry can resume from the last byte written.
 */
public final class S3Clients {
  /** The client settings that matter beyond the endpoint: pool size and stall timeout. */
  public record Key(S3EndpointConfig endpoint, int maxConnections, Duration socketTimeout) {}

  private static final Map<Key, S3Client> CLIENTS = new ConcurrentHashMap<>();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(S3Clients::closeAll, "ferry-s3-clients-close"));
  }

  private S3Clients() {}

  public static S3Client get(S3EndpointConfig endpoint, int maxConnections, Duration socketTimeout) {
    return CLIENTS.computeIfAbsent(new Key(endpoint, maxConnections, socketTimeout), S3Clients::build);
  }

  /** Closes every cached client (tests and the driver at the end of a run). */
  public static void closeAll() {
    CLIENTS.values().forEach(S3Client::close);
    CLIENTS.clear();
  }

  static S3Client build(Key key) {
    S3EndpointConfig e = key.endpoint();
    var builder = S3Client.builder()
        .region(Region.of(e.region()))
        .credentialsProvider(credentials(e))
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(e.pathStyle()).build())
        .requestChecksumCalculation(e.checksumMode() == S3EndpointConfig.ChecksumMode.WHEN_SUPPORTED
            ? RequestChecksumCalculation.WHEN_SUPPORTED : RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(e.checksumMode() == S3EndpointConfig.ChecksumMode.WHEN_SUPPORTED
            ? ResponseChecksumValidation.WHEN_SUPPORTED : ResponseChecksumValidation.WHEN_REQUIRED)
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .httpClientBuilder(ApacheHttpClient.builder()
            .maxConnections(Math.max(4, key.maxConnections()))
            .connectionTimeout(Duration.ofSeconds(10))
            .socketTimeout(key.socketTimeout())
            .connectionAcquisitionTimeout(Duration.ofMinutes(5)));
    if (!e.endpoint().isEmpty()) builder.endpointOverride(URI.create(e.endpoint()));
    return builder.build();
  }

  private static AwsCredentialsProvider credentials(S3EndpointConfig e) {
    return switch (e.credentialsType()) {
      case STATIC -> StaticCredentialsProvider.create(AwsBasicCredentials.create(e.accessKeyId(), e.secretAccessKey().reveal()));
      case DEFAULT_CHAIN -> DefaultCredentialsProvider.builder().build();
    };
  }
}
