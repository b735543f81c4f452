package io.ferry.store.s3;

import io.ferry.config.BucketConfig;
import io.ferry.store.Destination;
import io.ferry.store.DestinationContract;
import io.ferry.store.retry.Retrier;
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

  /**
   * A stream holds its GET open while its bytes go out in a PUT: with a bucket copied into another of the same
   * endpoint and credentials, every connection of a pool shared by reads and writes can be a GET's, and no PUT ever
   * gets one (the copy hung for five minutes at a time).
   */
  @org.junit.jupiter.api.Test
  void readsHoldingEveryConnectionNeverStarveTheWritesOfTheSameEndpoint() throws Exception {
    String name = "starve-" + BUCKETS.incrementAndGet();
    client().createBucket(b -> b.bucket(name));
    byte[] bytes = new byte[300_000];
    for (int i = 0; i < 4; i++) client().putObject(b -> b.bucket(name).key("in-" + java.util.UUID.randomUUID()),
        RequestBody.fromBytes(bytes));
    BucketConfig config = new BucketConfig(s3.endpointConfig(), name, "");
    S3Store store = new S3Store(config, 4, Duration.ofSeconds(30), Retrier.once());
    var objects = new java.util.ArrayList<io.ferry.store.StoreObject>();
    store.lister().list(objects::add);
    var reads = new java.util.ArrayList<java.io.InputStream>();
    try {
      for (var o : objects) reads.add(store.reader().open(o, new io.ferry.store.ByteRange(0, o.size()))); // every connection of 4
      io.ferry.store.StoreObject out = new io.ferry.store.StoreObject("out", "out", 5, "", 0);
      org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> store.destination().write(
          io.ferry.store.Upload.whole(out), 1, new io.ferry.store.ByteRange(0, 5), 0,
          () -> new java.io.ByteArrayInputStream("hello".getBytes(java.nio.charset.StandardCharsets.US_ASCII)),
          () -> io.ferry.store.ObjectMetadata.NONE));
    } finally {
      for (var in : reads) in.close();
    }
    org.assertj.core.api.Assertions.assertThat(client().getObjectAsBytes(b -> b.bucket(name).key("out")).asUtf8String()).isEqualTo("hello");
  }

  @Override
  protected int leftovers() {
    return Buckets.openUploads(client(), bucket);
  }
}
