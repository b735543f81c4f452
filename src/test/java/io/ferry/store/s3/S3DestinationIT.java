package io.ferry.store.s3;

import io.ferry.config.BucketConfig;
import io.ferry.store.Destination;
import io.ferry.store.DestinationContract;
import io.ferry.store.Retrier;
import io.ferry.support.Buckets;
import io.ferry.support.S3Backend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/** The destination behaviour suite on a bucket of a real S3 server over HTTP with SigV4 (S3Proxy in a child JVM). */
class S3DestinationIT extends DestinationContract {
  private static final AtomicInteger BUCKETS = new AtomicInteger();
  @TempDir static Path work;
  private static S3Backend s3;
  private String bucket;

  @BeforeAll
  static void start() throws Exception {
    s3 = S3Backend.start(work);
  }

  @AfterAll
  static void stop() throws Exception {
    if (s3 != null) s3.close();
  }

  @Override
  protected Destination destination() {
    bucket = "contract-" + BUCKETS.incrementAndGet();
    s3.client().createBucket(b -> b.bucket(bucket));
    return new S3Store(new BucketConfig(s3.endpointConfig(), bucket, "prefix/"), 4, Duration.ofSeconds(10), Retrier.once()).destination();
  }

  private S3Client client() {
    return s3.client();
  }

  @Override
  protected byte[] read(String relativeKey) {
    try {
      return client().getObjectAsBytes(b -> b.bucket(bucket).key("prefix/" + relativeKey)).asByteArray();
    } catch (NoSuchKeyException e) {
      return null;
    }
  }

  @Override
  protected void put(String relativeKey, byte[] bytes) {
    client().putObject(b -> b.bucket(bucket).key("prefix/" + relativeKey), RequestBody.fromBytes(bytes));
  }

  @Override
  protected int leftovers() {
    return Buckets.openUploads(client(), bucket);
  }
}
