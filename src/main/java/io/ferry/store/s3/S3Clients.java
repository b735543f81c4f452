package io.ferry.store.s3;

import io.ferry.config.S3EndpointConfig;
import io.ferry.store.limits.Limits;
import io.ferry.store.limits.RateLimit;
import io.ferry.store.limits.Throttle;
import io.ferry.store.s3.http.Authorization;
import io.ferry.store.s3.http.BearerToken;
import io.ferry.store.s3.http.BulkHttpClient;
import io.ferry.store.s3.http.IbmIamTokens;
import io.ferry.store.s3.http.SigV4;
import io.ferry.store.s3.http.SignedRequests;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.http.conn.socket.ConnectionSocketFactory;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
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
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * One S3 client per JVM per endpoint setting, built lazily where it is used (driver or executor) and never
 * serialized: the SDK's client for the few calls of control (listing, HEAD, opening, completing and aborting uploads)
 * and, on pools of their own ({@link BulkHttpClient}), the bulk requests of the copy ({@link SignedRequests}): one
 * for reads, one for writes, since a stream holds its GET's connection while its PUT sends the bytes, and a bucket
 * copied into another of the same endpoint and keys would otherwise fill one pool with GETs waiting for PUTs. The
 * SDK's retries are off for all: every request has the job's one retry layer ({@code io.ferry.store.retry.Retrier}, or the
 * copy's for ranges). Every request to an endpoint goes through the JVM's one {@link Throttle} for it.
 */
public final class S3Clients {
  /** The client settings that matter beyond the endpoint: pool size and stall timeout. */
  record Key(S3EndpointConfig endpoint, int maxConnections, Duration socketTimeout) {}

  /**
   * An endpoint's client and the HTTP pool it sends on, and the direct requests with theirs. Both pools open
   * connections only as they are used.
   */
  private record Clients(S3Client s3, SdkHttpClient http, SdkHttpClient reads, SignedRequests requests, SdkHttpClient writes,
      SignedRequests writeRequests) {
    void close() {
      s3.close();
      http.close();
      reads.close();
      writes.close();
    }
  }

  private static final Map<Key, Clients> CLIENTS = new ConcurrentHashMap<>();
  private static final Map<String, Throttle> THROTTLES = new ConcurrentHashMap<>();
  /** A burst of throttling answers to requests sent together is one signal to slow down. */
  private static final long THROTTLE_COOLDOWN_MILLIS = 1000;

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(S3Clients::closeAll, "ferry-s3-clients-close"));
  }

  private S3Clients() {}

  /** The SDK's client: a pool of {@code maxConnections}, no SDK retries, {@code socketTimeout} as stall limit. */
  public static S3Client client(S3EndpointConfig endpoint, int maxConnections, Duration socketTimeout) {
    return clients(endpoint, maxConnections, socketTimeout).s3();
  }

  /** Ranged GETs, on a pool of their own with the same settings. */
  public static SignedRequests requests(S3EndpointConfig endpoint, int maxConnections, Duration socketTimeout) {
    return clients(endpoint, maxConnections, socketTimeout).requests();
  }

  /** Object writes (PutObject, UploadPart, copies inside the service), on a pool of their own apart from the reads'. */
  public static SignedRequests writes(S3EndpointConfig endpoint, int maxConnections, Duration socketTimeout) {
    return clients(endpoint, maxConnections, socketTimeout).writeRequests();
  }

  /** The throttle of every request this JVM sends to {@code endpoint}'s address. */
  public static Throttle throttle(S3EndpointConfig endpoint) {
    return THROTTLES.computeIfAbsent(endpoint.endpoint() + "|" + endpoint.region(), k -> new Throttle(4, THROTTLE_COOLDOWN_MILLIS));
  }

  /** Closes every cached client (tests and the driver at the end of a run). */
  public static void closeAll() {
    CLIENTS.values().forEach(Clients::close);
    CLIENTS.clear();
  }

  private static Clients clients(S3EndpointConfig endpoint, int maxConnections, Duration socketTimeout) {
    return CLIENTS.computeIfAbsent(new Key(endpoint, Math.max(4, maxConnections), socketTimeout), S3Clients::build);
  }

  /** The header by which a request to a Requester Pays bucket accepts its charges. */
  static final String REQUEST_PAYER = "x-amz-request-payer";

  static Clients build(Key key) {
    S3EndpointConfig e = key.endpoint();
    Throttle throttle = throttle(e);
    throttle.raiseMax(key.maxConnections());
    ApacheHttpClient.Builder pool = ApacheHttpClient.builder()
        .maxConnections(key.maxConnections())
        .connectionTimeout(Duration.ofSeconds(10))
        .socketTimeout(key.socketTimeout())
        .connectionAcquisitionTimeout(Duration.ofMinutes(5));
    ConnectionSocketFactory tls = tls(e);
    if (tls != null) pool.socketFactory(tls);
    RateLimit requests = Limits.requests(e.endpoint() + "|" + e.region());
    SdkHttpClient http = new ThrottledHttpClient(pool.build(), throttle, requests, e.pathStyle());
    AwsCredentialsProvider credentials = credentials(e);
    BearerToken bearer = e.credentials().type() == S3EndpointConfig.CredentialsType.IBM_IAM
        ? new BearerToken(new IbmIamTokens(e.credentials().tokenUrl(), e.credentials().apiKey(), Clock.systemUTC())) : null;
    var builder = S3Client.builder()
        .region(Region.of(e.region()))
        .credentialsProvider(credentials)
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(e.pathStyle()).build())
        .requestChecksumCalculation(e.checksumMode() == S3EndpointConfig.ChecksumMode.WHEN_SUPPORTED
            ? RequestChecksumCalculation.WHEN_SUPPORTED : RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(e.checksumMode() == S3EndpointConfig.ChecksumMode.WHEN_SUPPORTED
            ? ResponseChecksumValidation.WHEN_SUPPORTED : ResponseChecksumValidation.WHEN_REQUIRED)
        .overrideConfiguration(o -> {
          o.retryStrategy(AwsRetryStrategy.doNotRetry());
          if (bearer != null) o.addExecutionInterceptor(bearer);
          if (e.requesterPays()) o.putHeader(REQUEST_PAYER, "requester");
        })
        .httpClient(http);
    if (!e.endpoint().isEmpty()) builder.endpointOverride(URI.create(e.endpoint()));
    S3Client s3 = builder.build();
    SdkHttpClient reads = bulk(key, tls, throttle, requests);
    SdkHttpClient writes = bulk(key, tls, throttle, requests);
    Authorization authorization = bearer != null ? bearer : new SigV4(credentials, e.region(),
        e.checksumMode() == S3EndpointConfig.ChecksumMode.WHEN_SUPPORTED, e.unsignedPayload(), Clock.systemUTC());
    Map<String, String> always = e.requesterPays() ? Map.of(REQUEST_PAYER, "requester") : Map.of();
    return new Clients(s3, http, reads, new SignedRequests(reads, s3.utilities(), authorization, always), writes,
        new SignedRequests(writes, s3.utilities(), authorization, always)); // one signer: a clock skew learnt by reads is writes' too
  }

  private static SdkHttpClient bulk(Key key, ConnectionSocketFactory tls, Throttle throttle, RateLimit requests) {
    return new ThrottledHttpClient(new BulkHttpClient(key.maxConnections(), Duration.ofSeconds(10), key.socketTimeout(), tls), throttle,
        requests, key.endpoint().pathStyle());
  }

  /** For a plain-http endpoint a TLS socket factory built only if ever used; null (the SDK's own) for any other. */
  static LazyTlsSocketFactory lazyTls(String endpoint) {
    return endpoint.regionMatches(true, 0, "http://", 0, 7) ? new LazyTlsSocketFactory() : null;
  }

  /**
   * The TLS connections of an endpoint: for https with a CA bundle, the system's trusted CAs and the bundle's, host
   * names verified; for plain http, one built only if ever needed; null (the system's, verified) for any other.
   */
  static ConnectionSocketFactory tls(S3EndpointConfig e) {
    if (!e.caBundle().isEmpty() && !e.endpoint().regionMatches(true, 0, "http://", 0, 7)) {
      return new SSLConnectionSocketFactory(TrustedCertificates.context(Path.of(e.caBundle())),
          SSLConnectionSocketFactory.getDefaultHostnameVerifier());
    }
    return lazyTls(e.endpoint());
  }

  static AwsCredentialsProvider credentials(S3EndpointConfig e) {
    return switch (e.credentials().type()) {
      case STATIC -> StaticCredentialsProvider.create(e.credentials().sessionToken().reveal().isEmpty()
          ? AwsBasicCredentials.create(e.credentials().accessKeyId(), e.credentials().secretAccessKey().reveal())
          : AwsSessionCredentials.create(e.credentials().accessKeyId(),
              e.credentials().secretAccessKey().reveal(), e.credentials().sessionToken().reveal()));
      case DEFAULT_CHAIN -> DefaultCredentialsProvider.builder().build();
      // Unsigned requests; BearerToken adds "Authorization: Bearer <IAM token>".
      case IBM_IAM -> AnonymousCredentialsProvider.create();
      case ASSUME_ROLE -> ROLES.computeIfAbsent(e.credentials(), c -> assumed(c, e.region()));
    };
  }

  /** One provider per role and JVM, shared by all its clients: one AssumeRole per expiry, not one per client. */
  private static final Map<S3EndpointConfig.Credentials, AwsCredentialsProvider> ROLES = new ConcurrentHashMap<>();

  /**
   * The role's temporary keys, from STS AssumeRole sent as the given keys (or as the default chain), refreshed by the
   * SDK before they expire: in the background from 5 minutes before, blocking from 1 minute before.
   */
  private static AwsCredentialsProvider assumed(S3EndpointConfig.Credentials c, String region) {
    S3EndpointConfig.Role role = c.role();
    AwsCredentialsProvider as = c.accessKeyId().isBlank() ? DefaultCredentialsProvider.builder().build()
        : StaticCredentialsProvider.create(AwsBasicCredentials.create(c.accessKeyId(), c.secretAccessKey().reveal()));
    var sts = StsClient.builder().region(Region.of(region)).credentialsProvider(as)
        .httpClient(ApacheHttpClient.builder().connectionTimeout(Duration.ofSeconds(10)).build());
    if (!role.stsEndpoint().isEmpty()) sts.endpointOverride(URI.create(role.stsEndpoint()));
    return StsAssumeRoleCredentialsProvider.builder().stsClient(sts.build())
        .refreshRequest(r -> {
          r.roleArn(role.arn()).roleSessionName(role.sessionName()).durationSeconds((int) role.duration().toSeconds());
          if (!role.externalId().isEmpty()) r.externalId(role.externalId().reveal());
        }).build();
  }
}
