package io.ferry.bench;

import io.ferry.config.S3EndpointConfig;
import io.ferry.store.ByteRange;
import io.ferry.store.s3.S3Clients;
import io.ferry.store.s3.http.SignedRequests;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The limit a copy is measured against: parallel ranged GETs of every object under a prefix, bytes discarded, no
 * Spark, no writes, sent the way Ferry's executors send them ({@link SignedRequests}). Prints "bytes seconds MB/s".
 *
 * <p>Usage: {@code RawRangedReader <endpoint> <bucket> <prefix> <streams> <part MiB>} with the keys in
 * {@code FERRY_BENCH_ACCESS_KEY} and {@code FERRY_BENCH_SECRET_KEY}.
 */
public final class RawRangedReader {
  private RawRangedReader() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: RawRangedReader <endpoint> <bucket> <prefix> <streams> <part MiB>");
      System.exit(2);
    }
    S3EndpointConfig endpoint = S3EndpointConfig.withKeys(args[0], "us-east-1", System.getenv("FERRY_BENCH_ACCESS_KEY"),
        System.getenv("FERRY_BENCH_SECRET_KEY"));
    String bucket = args[1];
    int streams = Integer.parseInt(args[3]);
    long part = Long.parseLong(args[4]) << 20;
    S3Client client = io.ferry.support.TestS3.client(endpoint);
    SignedRequests gets = S3Clients.requests(endpoint, streams, Duration.ofSeconds(60));
    List<long[]> ranges = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (S3Object o : client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(args[2])).contents()) {
      for (long offset = 0; offset < o.size(); offset += part) {
        keys.add(o.key());
        ranges.add(new long[] {offset, Math.min(part, o.size() - offset)});
      }
    }
    AtomicLong bytes = new AtomicLong();
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(streams);
    List<Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < ranges.size(); i++) {
      String key = keys.get(i);
      long[] r = ranges.get(i);
      futures.add(pool.submit(() -> {
        byte[] buffer = new byte[1 << 20];
        try (InputStream in = gets.get(bucket, key, new ByteRange(r[0], r[1]), "")) {
          for (int n; (n = in.read(buffer)) > 0; ) bytes.addAndGet(n);
        }
        return null;
      }));
    }
    for (Future<?> f : futures) f.get();
    pool.shutdown();
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(java.util.Locale.ROOT, "%d %.3f %.1f%n", bytes.get(), seconds, bytes.get() / 1e6 / seconds);
    S3Clients.closeAll();
  }
}
