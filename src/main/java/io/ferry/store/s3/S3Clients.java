package io.ferry.store.s3;

import io.ferry.config.S3EndpointConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * One S3 client per JVM per endpoint setting, built lazily where it is used (driver or executor) and never
 * serialized. Two kinds, so each request has exactly one retry layer:
 * <ul>
 *   <li>{@link #requests}: the ranged GETs and object writes of bulk transfers, sent without the client's request
 *       pipeline ({@link SignedRequests}) on a pool of their own ({@link BulkHttpClient}), and {@link #data}, the
 *       client with the same settings for the executors' few other calls (HEAD, CreateMultipartUpload). No SDK retries; {@code RangeCopier} retries, counts
 *       attempts and resumes from the last byte written.
 *   <li>{@link #control}: listing and other small driver calls. The SDK's standard retries (3 attempts, backoff)
 *       apply; nothing above them retries.
 * </ul>
 */
public final class S3Clients {
  /** The client settings that matter beyond the endpoint: pool size and stall timeout. */
  public record Key(S3EndpointConfig endpoint, int maxConnections, Duration socketTimeout, boolean sdkRetries) {}

  /**
   * An endpoint's client and the HTTP pool it sends on, and the direct requests with theirs ({@link BulkHttpClient};
   * the client's own for a control client, which sends none). Both pools open connections only as they are used.
   */
  private record Clients(S3Client s3, SdkHttpClient http, SdkHttpClient bulk, SignedRequests requests) {
    void close() {
      s3.close();
      http.close();
      if (bulk != http) bulk.close();
    }
  }

  private static final Map<Key, Clients> CLIENTS = new ConcurrentHashMap<>();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(S3Clients::closeAll, "ferry-s3-clients-close"));
  }

  private S3Clients() {}

  /** The executors' client: a pool of {@code maxConnections}, no SDK retries, {@code socketTimeout} as stall limit. */
  public static S3Client data(S3EndpointConfig endpoint, int maxConnections, Duration socketTimeout) {
    return CLIENTS.computeIfAbsent(new Key(endpoint, maxConnections, socketTimeout, false), S3Clients::build).s3();
  }

  /** Ranged GETs and object writes on the pool of {@link #data} with the same settings. */
  public static SignedRequests requests(S3EndpointConfig endpoint, int maxConnections, Duration socketTimeout) {
    return CLIENTS.computeIfAbsent(new Key(endpoint, maxConnections, socketTimeout, false), S3Clients::build).requests();
  }

  /** The client for listing and other control calls, with the SDK's standard retries. */
  public static S3Client control(S3EndpointConfig endpoint) {
    return CLIENTS.computeIfAbsent(new Key(endpoint, 8, Duration.ofSeconds(60), true), S3Clients::build).s3();
  }

  /** Closes every cached client (tests and the driver at the end of a run). */
  public static void closeAll() {
    CLIENTS.values().forEach(Clients::close);
    CLIENTS.clear();
  }

  static Clients build(Key key) {
    S3EndpointConfig e = key.endpoint();
    ApacheHttpClient.Builder pool = ApacheHttpClient.builder()
        .maxConnections(Math.max(4, key.maxConnections()))
        .connectionTimeout(Duration.ofSeconds(10))
        .socketTimeout(key.socketTimeout())
        .connectionAcquisitionTimeout(Duration.ofMinutes(5));
    LazyTlsSocketFactory lazyTls = lazyTls(e.endpoint());
    if (lazyTls != null) pool.socketFactory(lazyTls);
    SdkHttpClient http = pool.build();
    AwsCredentialsProvider credentials = credentials(e);
    IbmIamTokens tokens = e.credentialsType() == S3EndpointConfig.CredentialsType.IBM_IAM
        ? new IbmIamTokens(e.tokenUrl(), e.apiKey(), java.time.Clock.systemUTC()) : null;
    var builder = S3Client.builder()
        .region(Region.of(e.region()))
        .credentialsProvider(credentials)
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(e.pathStyle()).build())
        .requestChecksumCalculation(e.checksumMode() == S3EndpointConfig.ChecksumMode.WHEN_SUPPORTED
            ? RequestChecksumCalculation.WHEN_SUPPORTED : RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(e.checksumMode() == S3EndpointConfig.ChecksumMode.WHEN_SUPPORTED
            ? ResponseChecksumValidation.WHEN_SUPPORTED : ResponseChecksumValidation.WHEN_REQUIRED)
        .overrideConfiguration(o -> {
          o.retryStrategy(key.sdkRetries() ? AwsRetryStrategy.standardRetryStrategy() : AwsRetryStrategy.doNotRetry());
          if (tokens != null) o.addExecutionInterceptor(new BearerTokenInterceptor(tokens));
        })
        .httpClient(http);
    if (!e.endpoint().isEmpty()) builder.endpointOverride(URI.create(e.endpoint()));
    S3Client s3 = builder.build();
    // The bulk requests go on their own pool (BulkHttpClient: large body writes); control clients send none.
    SdkHttpClient bulk = key.sdkRetries() ? http
        : new BulkHttpClient(Math.max(4, key.maxConnections()), Duration.ofSeconds(10), key.socketTimeout(), lazyTls);
    return new Clients(s3, http, bulk, new SignedRequests(bulk, s3.utilities(), e.region(), tokens == null ? credentials : null, tokens,
        e.checksumMode() == S3EndpointConfig.ChecksumMode.WHEN_SUPPORTED, e.unsignedPayload()));
  }

  /** For a plain-http endpoint a TLS socket factory built only if ever used; null (the SDK's own) for any other. */
  static LazyTlsSocketFactory lazyTls(String endpoint) {
    return endpoint.regionMatches(true, 0, "http://", 0, 7) ? new LazyTlsSocketFactory() : null;
  }

  private static AwsCredentialsProvider credentials(S3EndpointConfig e) {
    return switch (e.credentialsType()) {
      case STATIC -> StaticCredentialsProvider.create(AwsBasicCredentials.create(e.accessKeyId(), e.secretAccessKey().reveal()));
      case DEFAULT_CHAIN -> DefaultCredentialsProvider.builder().build();
      // Unsigned requests; BearerTokenInterceptor adds "Authorization: Bearer <IAM token>".
      case IBM_IAM -> AnonymousCredentialsProvider.create();
    };
  }
}
