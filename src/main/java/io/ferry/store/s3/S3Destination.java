package io.ferry.store.s3;

import io.ferry.config.BucketConfig;
import io.ferry.config.S3Limits;
import io.ferry.store.Body;
import io.ferry.store.ByteRange;
import io.ferry.store.Capabilities;
import io.ferry.store.Destination;
import io.ferry.store.InServiceCopy;
import io.ferry.store.Lister;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.VersionedWrites;
import io.ferry.store.retry.Retrier;
import io.ferry.store.s3.http.S3Errors;
import io.ferry.store.s3.http.SignedRequests;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;

/**
 * A bucket as destination. An object written whole is one request (PutObject, or CopyObject inside the service),
 * which S3 makes visible atomically; one written in parts is a multipart upload, whose parts any executor uploads
 * (UploadPart, or UploadPartCopy with a source range) and which is completed with every part's ETag in order, or
 * aborted. Storage class, encryption and tags apply to every object written; content headers and user metadata come
 * from the source. The object writes go out as {@link SignedRequests}; the few control requests through the client.
 */
final class S3Destination implements Destination, VersionedWrites {
  /** S3's multipart limits: parts of 5 MiB (but the last) to 5 GiB, at most 10,000 of them. */
  static final Capabilities CAPABILITIES = new Capabilities(S3Limits.MIN_PART, S3Limits.MAX_PART, S3Limits.MAX_PARTS, false, false, true);
  /** S3's longest key, in UTF-8 bytes. */
  static final int MAX_KEY_BYTES = 1024;

  private final S3Client client;
  private final SignedRequests requests;
  private final Supplier<SignedRequests> checked;
  private final BucketConfig config;
  private final Retrier retrier;
  private final LockCheck lock;
  private final WriteHeaders headers;
  private final MultipartUploads multipart;

  /** Whether the bucket has Object Lock. */
  @FunctionalInterface
  interface LockCheck {
    boolean locked() throws IOException;
  }

  /** Buckets (endpoint and name) by whether they have Object Lock, as asked once per JVM. */
  private static final Map<String, Boolean> LOCKED = new ConcurrentHashMap<>();

  /** @param retrier the job's retry policy, for the pages of {@link #existing} */
  S3Destination(S3Client client, SignedRequests requests, BucketConfig config, Retrier retrier) {
    this(client, requests, () -> requests, config, retrier, null);
  }

  /**
   * @param checked the uploads' requests with a checksum each, which a bucket with Object Lock requires of them
   * @param lock whether the bucket has Object Lock (null: GetObjectLockConfiguration, once per JVM)
   */
  S3Destination(S3Client client, SignedRequests requests, Supplier<SignedRequests> checked, BucketConfig config,
      Retrier retrier, LockCheck lock) {
    this.client = client;
    this.requests = requests;
    this.checked = checked;
    this.config = config;
    this.retrier = retrier;
    this.lock = lock != null ? lock : this::askLocked;
    this.headers = new WriteHeaders(config, this.lock);
    this.multipart = new MultipartUploads(client, config);
  }

  /**
   * Whether the bucket has Object Lock: GetObjectLockConfiguration, once per JVM. A bucket without it answers 404
   * (AWS: ObjectLockConfigurationNotFoundError) or 400 (S3Mock, Ceph); a store without Object Lock 501; any of them
   * is none. So is a 403: a writer of another account often may not ask (s3:GetBucketObjectLockConfiguration), and
   * writes then go as they did before Ferry asked (a bucket that requires a checksum says so in its own error).
   */
  private boolean askLocked() throws IOException {
    String place = config.endpoint().endpoint() + " " + config.bucket();
    Boolean known = LOCKED.get(place);
    if (known != null) return known;
    // no configuration, or a store that keeps none or will not say: no Object Lock to carry
    boolean locked = retrier.call(() -> S3Errors.translated(() -> {
      var answer = client.getObjectLockConfiguration(b -> b.bucket(config.bucket()));
      return answer.objectLockConfiguration() != null
          && "Enabled".equalsIgnoreCase(answer.objectLockConfiguration().objectLockEnabledAsString());
    }, e -> S3Errors.status(e, 404, 400, 501, 405, 403) ? Optional.of(false) : Optional.empty()));
    LOCKED.put(place, locked);
    return locked;
  }

  String key(StoreObject object) {
    return key(config, object);
  }

  static String key(BucketConfig config, StoreObject object) {
    return config.prefix() + object.relativeKey();
  }

  @Override
  public boolean keepsVersions() throws IOException {
    return S3Errors.translated(() -> client.getBucketVersioning(b -> b.bucket(config.bucket())).status())
        == BucketVersioningStatus.ENABLED;
  }

  /** HEAD of the key: its latest version's id; a delete marker answers 404 with its id in a header. */
  @Override
  public String latestVersion(StoreObject object) throws IOException {
    return S3Errors.translated(() -> {
      String id = client.headObject(b -> b.bucket(config.bucket()).key(key(object))).versionId();
      return id == null ? "" : id;
    }, e -> S3Errors.status(e, 404) ? S3Errors.response(e).map(r -> r.firstMatchingHeader("x-amz-version-id").orElse(""))
        : Optional.empty());
  }

  @Override
  public void markDeleted(StoreObject version) throws IOException {
    var answer = S3Errors.translated(() -> client.deleteObject(b -> b.bucket(config.bucket()).key(key(version))));
    // a delete marker has a version id of its own; a delete in a bucket without versioning has none, and one whose
    // versioning is suspended makes the marker "null", removing the key's null version for good
    if (answer.versionId() == null || answer.versionId().equals("null")) {
      throw new StoreFailure(StoreFailure.Kind.FATAL, "the bucket " + config.bucket() + " deleted " + key(version) + " instead of"
          + " keeping it as a version: its versioning is no longer enabled (stop writing versions into it)", null);
    }
  }

  @Override
  public boolean delete(StoreObject existing) throws IOException {
    S3Errors.translated(() -> client.deleteObject(b -> b.bucket(config.bucket()).key(key(existing))));
    return true;
  }

  /**
   * CopyObject inside the bucket to {@code to} + the relative key (only while the object has its listed ETag, its
   * metadata kept), then the delete. An object over 5 GiB cannot be copied in one request and fails.
   */
  @Override
  public boolean moveAside(StoreObject existing, String to) throws IOException {
    String from = key(existing);
    String aside = to + existing.relativeKey();
    boolean copied = S3Errors.translated(() -> {
      client.copyObject(b -> {
        b.sourceBucket(config.bucket()).sourceKey(from).destinationBucket(config.bucket()).destinationKey(aside)
            .metadataDirective(MetadataDirective.COPY);
        if (!existing.etag().isEmpty()) b.copySourceIfMatch("\"" + existing.etag() + "\"");
      });
      return true;
    }, e -> e instanceof NoSuchKeyException || S3Errors.status(e, 412) ? Optional.of(false) : Optional.empty()); // gone, or changed
    return copied && delete(existing);
  }

  @Override
  public Optional<VersionedWrites> versions() {
    return Optional.of(this);
  }

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public String location(StoreObject object) {
    return "s3://" + config.bucket() + "/" + key(object);
  }

  @Override
  public String rejection(StoreObject object) {
    int bytes = key(object).getBytes(StandardCharsets.UTF_8).length;
    return bytes <= MAX_KEY_BYTES ? null
        : "the destination key would be " + bytes + " bytes long with ferry.destination.prefix, over S3's 1,024: not copied";
  }

  @Override
  public Lister existing() {
    return new S3Lister(client, requests, config, retrier, false);
  }

  /** The same size, and a copy no older than the source (a bucket sets its own modification times). */
  @Override
  public boolean unchanged(StoreObject source, StoreObject existing) {
    return existing.size() == source.size() && existing.lastModifiedMillis() >= source.lastModifiedMillis();
  }

  @Override
  public boolean keepsTags() {
    return config.writes().copyTags();
  }

  @Override
  public boolean keepsAcl() {
    return config.writes().copiesAcl();
  }

  @Override
  public Upload open(StoreObject object, ObjectMetadata.Lazy lazy) throws IOException {
    Map<String, String> sent = headers.put(object, lazy.get());
    CreateMultipartUploadRequest request = CreateMultipartUploadRequest.builder().bucket(config.bucket()).key(key(object))
        .overrideConfiguration(o -> sent.forEach(o::putHeader)).build();
    return new Upload(object, S3Errors.translated(() -> client.createMultipartUpload(request).uploadId()));
  }

  @Override
  public String write(Upload upload, int partNumber, ByteRange range, long from, Body body, ObjectMetadata.Lazy metadata)
      throws IOException {
    if (from != 0) throw new IllegalArgumentException("an S3 write cannot resume part-way: from " + from);
    String key = key(upload.object());
    return S3Errors.translated(() -> {
      // a bucket with Object Lock takes uploads with a checksum only
      SignedRequests uploads = lock.locked() ? checked.get() : requests;
      if (upload.inParts()) {
        return uploads.put(config.bucket(), key, WriteHeaders.part(upload.id(), partNumber), Map.of(), body.open(), range.length());
      }
      InputStream in = body.open(); // first: an object's metadata may come with its GET's answer
      Map<String, String> sent = headers.put(upload.object(), metadata.get());
      // an empty body goes unchunked, without the trailer: its MD5 is the checksum a bucket with Object Lock requires
      if (range.length() == 0 && lock.locked()) sent.put("Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg==");
      return uploads.put(config.bucket(), key, Map.of(), sent, in, range.length());
    });
  }

  /**
   * Completes the upload. One whose upload is gone (NoSuchUpload), or whose parts are (InvalidPart or NoSuchKey:
   * S3Proxy, while or after it completes), may have been completed by an earlier attempt whose answer was lost: it counts as completed
   * when the object is there with the ETag those parts make. Until it is, that attempt may still be completing it (S3
   * answers a completion before it ends), so the failure is retryable: the retries give it time, and a truly lost
   * upload fails when they run out.
   */
  @Override
  public String complete(Upload upload, SortedMap<Integer, String> receipts) throws IOException {
    if (!upload.inParts()) return ""; // its one PutObject or CopyObject made it visible
    List<CompletedPart> parts = new ArrayList<>();
    receipts.forEach((number, etag) -> parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build()));
    return S3Errors.translated(() -> {
      client.completeMultipartUpload(b -> b.bucket(config.bucket()).key(key(upload.object()))
          .uploadId(upload.id()).multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));
      return "";
    }, e -> {
      // S3Proxy answers a Complete of an upload it completed, or is completing, with InvalidPart or NoSuchKey
      boolean gone = e instanceof NoSuchUploadException || S3Errors.hasCode(e, "InvalidPart", "NoSuchKey");
      if (!gone) return Optional.empty();
      if (multipart.completed(upload, receipts)) return Optional.of("");
      throw new StoreFailure(StoreFailure.Kind.RETRYABLE, (e instanceof NoSuchUploadException ? "the multipart upload is gone"
          : "the upload's parts are not as recorded, or gone,") + " and the object is not complete: " + S3Errors.describe(e), e);
    });
  }

  /**
   * The recorded parts ListParts shows with the recorded ETags; null when the upload is gone: not among the bucket's
   * open uploads of the key, or NoSuchUpload.
   */
  @Override
  public Set<Integer> partsStillThere(Upload upload, SortedMap<Integer, String> recorded) throws IOException {
    return multipart.partsStillThere(upload, recorded);
  }

  /** Every open multipart upload under the prefix, keyed relative to it (size and ETag unknown: 0 and ""). */
  @Override
  public List<Upload> openUploads() throws IOException {
    return multipart.openUploads();
  }

  @Override
  public int abortLostOpenings(Upload kept, long withinMillis) throws IOException {
    return multipart.abortLostOpenings(kept, withinMillis);
  }

  @Override
  public void abort(Upload upload) throws IOException {
    multipart.abort(upload);
  }

  /** Fails with the service's error if the bucket cannot be reached with these credentials. */
  void checkBucket() throws IOException {
    S3Errors.translated(() -> client.headBucket(b -> b.bucket(config.bucket())));
  }

  /** Copies from {@code source}, a bucket of the same service: CopyObject for a whole object, UploadPartCopy for a part. */
  InServiceCopy copyingFrom(BucketConfig source) {
    return new InServiceCopies(client, requests, config, headers).from(source);
  }

  /** What objects are written with here: their headers. */
  WriteHeaders headers() {
    return headers;
  }
}
