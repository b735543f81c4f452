package io.ferry.store.s3;

import io.ferry.store.ListCounts;
import io.ferry.store.Lister;
import io.ferry.store.Retrier;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.util.function.Consumer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Lists a bucket under a prefix with ListObjectsV2 pages (1,000 keys each), handing each object on as its page
 * arrives. Keys ending in '/' with no bytes are folder markers, not objects: they are counted and left out.
 */
final class S3Lister implements Lister {
  private final S3Client client;
  private final String bucket;
  private final String prefix;
  private final Retrier retrier;

  S3Lister(S3Client client, String bucket, String prefix, Retrier retrier) {
    this.client = client;
    this.bucket = bucket;
    this.prefix = prefix;
    this.retrier = retrier;
  }

  /** Pages one after another, each retried by the job's policy (a listing is many requests; it resumes at its page). */
  @Override
  public ListCounts list(Consumer<StoreObject> consumer) throws IOException {
    long listed = 0, markers = 0, pages = 0;
    String token = null;
    do {
      ListObjectsV2Request request = ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).continuationToken(token).build();
      ListObjectsV2Response page = retrier.call(() -> S3Errors.translated(() -> client.listObjectsV2(request)));
      pages++;
      for (S3Object o : page.contents()) {
        listed++;
        if (o.key().endsWith("/") && o.size() == 0) {
          markers++;
          continue;
        }
        consumer.accept(new StoreObject(o.key(), o.key().substring(prefix.length()), o.size(), unquote(o.eTag()),
            o.lastModified() == null ? 0 : o.lastModified().toEpochMilli()));
      }
      token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
    } while (token != null);
    return new ListCounts(listed, listed - markers, markers, 0, pages);
  }

  /** ETags compared and passed on without quotes: stores differ in whether they quote them. */
  static String unquote(String etag) {
    if (etag == null) return "";
    return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"") ? etag.substring(1, etag.length() - 1) : etag;
  }
}
