package io.ferry.store.s3;

import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import io.ferry.store.s3.http.S3Errors;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.RequestPayer;

/**
 * Reads a source object's tags for the cheapest answer: a GET's answer counts them ({@code x-amz-tagging-count},
 * absent when there are none, or when the caller may not read them) once the bucket has been seen to send a count, so
 * an untagged object costs no request there; before that, and after a HEAD, which never counts them, a
 * GetObjectTagging asks (and a refusal fails the object, naming the permission). A store that does not implement
 * tagging (501) is asked once per JVM and bucket, then its objects have none to carry.
 */
final class SourceTags {
  /** Buckets (endpoint and name) seen to count tags in a GET's answer, so they can read them. */
  private static final Set<String> COUNTING = ConcurrentHashMap.newKeySet();
  /** Buckets whose store answered GetObjectTagging as not implemented. */
  private static final Set<String> UNTAGGED = ConcurrentHashMap.newKeySet();

  private final S3Client client;
  private final String bucket;
  /** Where the memos are kept: the endpoint and the bucket (AWS's buckets share one endpoint, not one policy). */
  private final String place;
  private final boolean requesterPays;

  SourceTags(S3Client client, String endpoint, String bucket) {
    this(client, endpoint, bucket, false);
  }

  /** @param requesterPays whether a request must accept a Requester Pays bucket's charges (a client of another endpoint's asks) */
  SourceTags(S3Client client, String endpoint, String bucket, boolean requesterPays) {
    this.client = client;
    this.bucket = bucket;
    this.place = endpoint + " " + bucket;
    this.requesterPays = requesterPays;
  }

  /**
   * The tags of {@code object} (of its version, where it is one), an empty map when it has none, null when the store keeps no tags.
   *
   * @param count the answer's {@code x-amz-tagging-count}
   * @param get whether that answer was a GET's (a HEAD's never counts)
   */
  Map<String, String> of(StoreObject object, Optional<String> count, boolean get) throws IOException {
    if (count.isPresent()) {
      COUNTING.add(place);
      if (count.get().trim().equals("0")) return Map.of();
    } else if (get && COUNTING.contains(place)) {
      return Map.of();
    }
    if (UNTAGGED.contains(place)) return null;
    Optional<Map<String, String>> read = S3Errors.translated(() -> {
      Map<String, String> tags = new LinkedHashMap<>();
      client.getObjectTagging(b -> {
        b.bucket(bucket).key(object.key()).versionId(object.versionId().isEmpty() ? null : object.versionId());
        if (requesterPays) b.requestPayer(RequestPayer.REQUESTER);
      }).tagSet().forEach(t -> tags.put(t.key(), t.value()));
      return Optional.of(tags);
    }, e -> {
      if (S3Errors.status(e, 501)) { // the store keeps no tags
        UNTAGGED.add(place);
        return Optional.of(Optional.empty());
      }
      if (S3Errors.status(e, 403)) {
        throw new StoreFailure(StoreFailure.Kind.FATAL, "reading the source object's tags was refused (" + S3Errors.describe(e)
            + "): allow s3:GetObjectTagging, or set ferry.destination.copy-tags = false to copy without them", e);
      }
      return Optional.empty();
    });
    return read.orElse(null);
  }

}
