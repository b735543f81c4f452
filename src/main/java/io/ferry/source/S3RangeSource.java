package io.ferry.source;

import io.ferry.copy.ObjectMetadata;
import io.ferry.copy.RangeSource;
import io.ferry.plan.ByteRange;
import io.ferry.plan.SourceObject;
import java.io.InputStream;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.http.Abortable;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * Ranged GETs from the source bucket. Each request carries {@code If-Match} with the listed ETag, so an object
 * overwritten during the run fails with 412 instead of mixing old and new bytes in one copy.
 */
public final class S3RangeSource implements RangeSource {
  private final S3Client client;
  private final String bucket;

  public S3RangeSource(S3Client client, String bucket) {
    this.client = client;
    this.bucket = bucket;
  }

  @Override
  public InputStream open(SourceObject object, ByteRange range) {
    GetObjectRequest.Builder request = GetObjectRequest.builder().bucket(bucket).key(object.key()).range(range.httpRange());
    if (!object.etag().isEmpty()) request.ifMatch("\"" + object.etag() + "\"");
    return client.getObject(request.build());
  }

  @Override
  public ObjectMetadata metadataOf(InputStream opened, SourceObject object) {
    if (opened instanceof ResponseInputStream<?> response && response.response() instanceof GetObjectResponse r) {
      return new ObjectMetadata(r.contentType(), r.contentEncoding(), r.contentDisposition(), r.cacheControl(), r.metadata());
    }
    return ObjectMetadata.NONE;
  }

  @Override
  public ObjectMetadata metadata(SourceObject object) {
    HeadObjectResponse r = client.headObject(b -> b.bucket(bucket).key(object.key()));
    return new ObjectMetadata(r.contentType(), r.contentEncoding(), r.contentDisposition(), r.cacheControl(), r.metadata());
  }

  @Override
  public void discard(InputStream in) {
    if (in instanceof Abortable abortable) abortable.abort();
    RangeSource.super.discard(in);
  }

  @Override
  public String verb() {
    return "get";
  }
}
