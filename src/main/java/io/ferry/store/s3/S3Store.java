package io.ferry.store.s3;

import io.ferry.config.BucketConfig;
import io.ferry.config.S3EndpointConfig.ChecksumMode;
import io.ferry.config.StoreConfig;
import io.ferry.store.Destination;
import io.ferry.store.InServiceCopy;
import io.ferry.store.Lister;
import io.ferry.store.RangeReader;
import io.ferry.store.Restorer;
import io.ferry.store.Store;
import io.ferry.store.retry.Retrier;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A bucket and prefix of an S3-compatible service. Its clients come from the per-JVM cache ({@link S3Clients}), built
 * where they are used (driver or executor) and never serialized.
 */
public final class S3Store implements Store {
  private final BucketConfig config;
  private final int connections;
  private final Duration stallTimeout;
  private final Retrier retrier;

  /**
   * @param connections the HTTP pool of the bulk requests (every concurrent stream of this JVM needs one)
   * @param stallTimeout a request that delivers no byte for this long fails (and is retried)
   * @param retrier the job's retry policy, which a listing applies to each of its pages
   */
  public S3Store(BucketConfig config, int connections, Duration stallTimeout, Retrier retrier) {
    this.config = config;
    this.connections = connections;
    this.stallTimeout = stallTimeout;
    this.retrier = retrier;
  }

  @Override
  public Lister lister() {
    return new S3Lister(client(), S3Clients.requests(config.endpoint(), connections, stallTimeout), config, retrier, true);
  }

  @Override
  public RangeReader reader() {
    return new S3RangeReader(S3Clients.requests(config.endpoint(), connections, stallTimeout), client(), config.endpoint().endpoint(),
        config.bucket());
  }

  @Override
  public Destination destination() {
    return s3Destination();
  }

  /** Copies objects of {@code source}, a bucket of the same service, inside it (no bytes through this JVM). */
  @Override
  public Optional<InServiceCopy> copyingFrom(StoreConfig source) {
    return source instanceof BucketConfig bucket ? Optional.of(s3Destination().copyingFrom(bucket)) : Optional.empty();
  }

  @Override
  public Optional<Restorer> restorer() {
    return Optional.of(new S3Restorer(client(), config.bucket(), retrier));
  }

  /** Fails with the service's error if the bucket cannot be reached with these credentials. */
  @Override
  public void check() throws IOException {
    S3Destination control = new S3Destination(client(), null, config, retrier);
    retrier.run(() -> control.checkBucket());
  }

  private S3Destination s3Destination() {
    return new S3Destination(client(), S3Clients.writes(config.endpoint(), connections, stallTimeout),
        () -> S3Clients.writes(config.endpoint().withChecksumMode(ChecksumMode.WHEN_SUPPORTED),
            connections, stallTimeout), config, retrier, null);
  }

  private S3Client client() {
    return S3Clients.client(config.endpoint(), connections, stallTimeout);
  }
}
