package io.ferry.store.s3;

import io.ferry.config.BucketConfig;
import io.ferry.store.InServiceCopy;
import io.ferry.store.StoreObject;
import io.ferry.store.s3.http.S3Errors;
import io.ferry.store.s3.http.SignedRequests;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.RequestPayer;

/** Copies inside one service: CopyObject for an object copied whole, UploadPartCopy for a part; no bytes through Ferry. */
final class InServiceCopies {
  private final S3Client client;
  private final SignedRequests requests;
  private final BucketConfig config;
  private final WriteHeaders headers;

  InServiceCopies(S3Client client, SignedRequests requests, BucketConfig config, WriteHeaders headers) {
    this.client = client;
    this.requests = requests;
    this.config = config;
    this.headers = headers;
  }

  /** Copies from {@code source}, a bucket of the same service: CopyObject for a whole object, UploadPartCopy for a part. */
  InServiceCopy from(BucketConfig source) {
    boolean payer = source.endpoint().requesterPays();
    SourceTags sourceTags = new SourceTags(client, source.endpoint().endpoint(), source.bucket(), payer);
    SourceGrants sourceGrants = new SourceGrants(client, source.bucket(), payer);
    return (upload, partNumber, range) -> S3Errors.translated(() -> upload.inParts()
        ? requests.copy(config.bucket(), S3Destination.key(config, upload.object()), WriteHeaders.part(upload.id(), partNumber),
        payer(payer, WriteHeaders.copyPart(upload.object(), source.bucket(), range)))
        : copyWhole(upload.object(), payer(payer, headers.copy(upload.object(), source.bucket(),
        () -> sourceTags.of(upload.object(), Optional.empty(), false), new SourceHead(source.bucket(), upload.object(),
        payer), () -> sourceGrants.of(upload.object())))));
  }

  /** Buckets (endpoint and name) whose store refused a copy's tagging directive as not implemented (it keeps no tags). */
  private static final Set<String> NO_TAGGING = ConcurrentHashMap.newKeySet();

  /**
   * A CopyObject. One that drops the source's tags (a tagging directive, and no tags) is sent again without the directive
   * where the store answers that it does not implement it: such a store (S3Proxy) keeps no tags to drop.
   */
  private String copyWhole(StoreObject object, Map<String, String> headers) throws IOException {
    String place = config.endpoint().endpoint() + " " + config.bucket();
    boolean dropsTags = headers.containsKey("x-amz-tagging-directive") && !headers.containsKey("x-amz-tagging");
    if (dropsTags && NO_TAGGING.contains(place)) headers.remove("x-amz-tagging-directive");
    return S3Errors.translated(() -> requests.copy(config.bucket(), S3Destination.key(config, object), Map.of(), headers), e -> {
      if (!dropsTags || !headers.containsKey("x-amz-tagging-directive") || !S3Errors.status(e, 501)) return Optional.empty();
      headers.remove("x-amz-tagging-directive");
      String receipt = S3Errors.translated(() -> requests.copy(config.bucket(), S3Destination.key(config, object), Map.of(), headers));
      NO_TAGGING.add(place); // only once a copy without it went through
      return Optional.of(receipt);
    });
  }

  /** The source object's HEAD, sent at most once, for what a CopyObject does not keep by itself: its class, its Object Lock. */
  private final class SourceHead implements WriteHeaders.SourceRead<HeadObjectResponse> {
    private final String bucket;
    private final StoreObject object;
    private final boolean requesterPays;
    private HeadObjectResponse head;

    SourceHead(String bucket, StoreObject object, boolean requesterPays) {
      this.bucket = bucket;
      this.object = object;
      this.requesterPays = requesterPays;
    }

    @Override
    public HeadObjectResponse read() throws IOException {
      if (head == null) {
        head = S3Errors.translated(() -> client.headObject(b -> {
          b.bucket(bucket).key(object.key()).versionId(object.versionId().isEmpty() ? null : object.versionId());
          if (requesterPays) b.requestPayer(RequestPayer.REQUESTER);
        }));
      }
      return head;
    }
  }

  /** A copy's headers, with the charges of reading a Requester Pays source accepted where it is one. */
  private static Map<String, String> payer(boolean requesterPays, Map<String, String> headers) {
    if (requesterPays) headers.put(S3Clients.REQUEST_PAYER, "requester");
    return headers;
  }
}
