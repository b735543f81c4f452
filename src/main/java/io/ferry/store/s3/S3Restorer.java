package io.ferry.store.s3;

import io.ferry.store.Archive;
import io.ferry.store.Restorer;
import io.ferry.store.StoreObject;
import io.ferry.store.retry.Retrier;
import io.ferry.store.s3.http.S3Errors;
import java.io.IOException;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GlacierJobParameters;
import software.amazon.awssdk.services.s3.model.RestoreObjectRequest;
import software.amazon.awssdk.services.s3.model.RestoreRequest;

/**
 * RestoreObject, and what its answers mean: 202 a restore started, 200 the object is restored already (the request
 * only moves its expiry), 409 RestoreAlreadyInProgress, 403 InvalidObjectState for an object no longer archived; and
 * a one-byte GET that tells whether an object can be read (403 InvalidObjectState: not yet).
 */
final class S3Restorer implements Restorer {
  private final S3Client client;
  private final String bucket;
  private final Retrier retrier;

  S3Restorer(S3Client client, String bucket, Retrier retrier) {
    this.client = client;
    this.bucket = bucket;
    this.retrier = retrier;
  }

  @Override
  public Outcome restore(StoreObject object, String tier, int days) throws IOException {
    RestoreRequest.Builder restore = RestoreRequest.builder().glacierJobParameters(GlacierJobParameters.builder().tier(tier).build());
    if (Archive.restoresForDays(object.archiveClass())) restore.days(days);
    RestoreObjectRequest request = RestoreObjectRequest.builder().bucket(bucket).key(object.key()).restoreRequest(restore.build()).build();
    return retrier.call(() -> S3Errors.translated(() -> client.restoreObject(request).sdkHttpResponse().statusCode() == 202
        ? Outcome.REQUESTED : Outcome.READABLE, e -> S3Errors.hasCode(e, "RestoreAlreadyInProgress") ? Optional.of(Outcome.UNDER_WAY)
        : S3Errors.hasCode(e, "InvalidObjectState") ? Optional.of(Outcome.READABLE) : Optional.empty()));
  }

  @Override
  public boolean readable(StoreObject object) throws IOException {
    return retrier.call(() -> S3Errors.translated(() -> {
      try (var first = client.getObject(b -> {
        b.bucket(bucket).key(object.key());
        if (object.size() > 0) b.range("bytes=0-0");
      })) {
        first.readAllBytes();
        return true;
      }
    }, e -> S3Errors.hasCode(e, "InvalidObjectState") ? Optional.of(false) : Optional.empty()));
  }
}
