package io.ferry.store.s3;

import io.ferry.store.ByteRange;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.RangeReader;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.io.InputStream;
import software.amazon.awssdk.http.Abortable;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * Ranged GETs from a bucket. Each request carries {@code If-Match} with the listed ETag, so an object overwritten
 * during the run fails with 412 instead of mixing old and new bytes in one copy. The GETs go out as
 * {@link SignedRequests} (no client pipeline); the one HEAD per multipart object goes through the client.
 */
final class S3RangeReader implements RangeReader {
  private final SignedRequests gets;
  private final S3Client client;
  private final String bucket;

  S3RangeReader(SignedRequests gets, S3Client client, String bucket) {
    this.gets = gets;
    this.client = client;
    this.bucket = bucket;
  }

  @Override
  public InputStream open(StoreObject object, ByteRange range) throws IOException {
    return S3Errors.translated(() -> gets.get(bucket, object.key(), range, object.etag()));
  }

  @Override
  public ObjectMetadata metadataOf(InputStream opened, StoreObject object) {
    if (opened instanceof SignedRequests.Body r) {
      return new ObjectMetadata(r.header("Content-Type").orElse(null), r.header("Content-Encoding").orElse(null),
          r.header("Content-Disposition").orElse(null), r.header("Cache-Control").orElse(null), r.userMetadata());
    }
    return ObjectMetadata.NONE;
  }

  @Override
  public ObjectMetadata metadata(StoreObject object) throws IOException {
    HeadObjectResponse r = S3Errors.translated(() -> client.headObject(b -> b.bucket(bucket).key(object.key())));
    return new ObjectMetadata(r.contentType(), r.contentEncoding(), r.contentDisposition(), r.cacheControl(), r.metadata());
  }

  @Override
  public void discard(InputStream in) {
    if (in instanceof Abortable abortable) abortable.abort();
    RangeReader.super.discard(in);
  }

  @Override
  public String verb() {
    return "get";
  }
}
