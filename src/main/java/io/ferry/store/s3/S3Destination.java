package io.ferry.store.s3;

import io.ferry.config.BucketConfig;
import io.ferry.config.ObjectWrites;
import io.ferry.config.Provider;
import io.ferry.config.S3Limits;
import io.ferry.store.Body;
import io.ferry.store.ByteRange;
import io.ferry.store.Capabilities;
import io.ferry.store.Destination;
import io.ferry.store.ETags;
import io.ferry.store.InServiceCopy;
import io.ferry.store.Lister;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.StorageClasses;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.retry.Retrier;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.RequestPayer;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * A bucket as destination. An object written whole is one request (PutObject, or CopyObject inside the service),
 * which S3 makes visible atomically; one written in parts is a multipart upload, whose parts any executor uploads
 * (UploadPart, or UploadPartCopy with a source range) and which is completed with every part's ETag in order, or
 * aborted. Storage class, encryption and tags apply to every object written; content headers and user metadata come
 * from the source. The object writes go out as {@link SignedRequests}; the few control requests through the client.
 */
final class S3Destination implements Destination {
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
    boolean locked;
    try {
      var answer = retrier.call(() -> S3Errors.translated(() -> client.getObjectLockConfiguration(b -> b.bucket(config.bucket()))));
      locked = answer.objectLockConfiguration() != null
          && "Enabled".equalsIgnoreCase(answer.objectLockConfiguration().objectLockEnabledAsString());
    } catch (StoreFailure e) {
      if (!(e.getCause() instanceof AwsServiceException a) || a.statusCode() != 404 && a.statusCode() != 400 && a.statusCode() != 501
          && a.statusCode() != 405 && a.statusCode() != 403) {
        throw e;
      }
      locked = false;
    }
    LOCKED.put(place, locked);
    return locked;
  }

  String key(StoreObject object) {
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
      try {
        String id = client.headObject(b -> b.bucket(config.bucket()).key(key(object))).versionId();
        return id == null ? "" : id;
      } catch (AwsServiceException e) {
        if (e.statusCode() != 404 || e.awsErrorDetails() == null || e.awsErrorDetails().sdkHttpResponse() == null) throw e;
        return e.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("x-amz-version-id").orElse("");
      }
    });
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
    try {
      client.copyObject(b -> {
        b.sourceBucket(config.bucket()).sourceKey(from).destinationBucket(config.bucket()).destinationKey(aside)
            .metadataDirective(MetadataDirective.COPY);
        if (!existing.etag().isEmpty()) b.copySourceIfMatch("\"" + existing.etag() + "\"");
      });
    } catch (NoSuchKeyException e) {
      return false; // gone already
    } catch (SdkException e) {
      if (e instanceof AwsServiceException a && a.statusCode() == 412) return false; // changed since it was listed
      throw S3Errors.failure(e);
    }
    return delete(existing);
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
    Map<String, String> headers = putHeaders(object, lazy.get());
    CreateMultipartUploadRequest request = CreateMultipartUploadRequest.builder().bucket(config.bucket()).key(key(object))
        .overrideConfiguration(o -> headers.forEach(o::putHeader)).build();
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
      if (upload.inParts()) return uploads.put(config.bucket(), key, part(upload.id(), partNumber), Map.of(), body.open(), range.length());
      InputStream in = body.open(); // first: an object's metadata may come with its GET's answer
      Map<String, String> headers = putHeaders(upload.object(), metadata.get());
      // an empty body goes unchunked, without the trailer: its MD5 is the checksum a bucket with Object Lock requires
      if (range.length() == 0 && lock.locked()) headers.put("Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg==");
      return uploads.put(config.bucket(), key, Map.of(), headers, in, range.length());
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
    try {
      client.completeMultipartUpload(b -> b.bucket(config.bucket()).key(key(upload.object()))
          .uploadId(upload.id()).multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));
    } catch (NoSuchUploadException e) {
      if (!completed(upload, receipts)) {
        throw new StoreFailure(StoreFailure.Kind.RETRYABLE, "the multipart upload is gone and the object is not complete: "
            + S3Errors.describe(e), e);
      }
    } catch (SdkException e) {
      // S3Proxy answers a Complete of an upload it completed, or is completing, with InvalidPart or NoSuchKey
      boolean gone = e instanceof AwsServiceException a && a.awsErrorDetails() != null
          && List.of("InvalidPart", "NoSuchKey").contains(a.awsErrorDetails().errorCode());
      if (!gone) throw S3Errors.failure(e);
      if (!completed(upload, receipts)) {
        throw new StoreFailure(StoreFailure.Kind.RETRYABLE, "the upload's parts are not as recorded, or gone, and the object is not"
            + " complete: "
            + S3Errors.describe(e), e);
      }
    }
    return "";
  }

  /**
   * The recorded parts ListParts shows with the recorded ETags; null when the upload is gone: not among the bucket's
   * open uploads of the key (some stores, S3Proxy among them, answer ListParts of an aborted upload with no parts and
   * even take new parts for it, where S3 answers NoSuchUpload), or NoSuchUpload.
   */
  @Override
  public Set<Integer> partsStillThere(Upload upload, SortedMap<Integer, String> recorded) throws IOException {
    if (!open(upload)) return null;
    Set<Integer> there = new TreeSet<>();
    try {
      Integer marker = null;
      do {
        Integer from = marker;
        var page = client.listParts(b -> b.bucket(config.bucket()).key(key(upload.object())).uploadId(upload.id()).partNumberMarker(from));
        for (var part : page.parts()) {
          String etag = recorded.get(part.partNumber());
          if (etag != null && ETags.unquote(part.eTag()).equals(ETags.unquote(etag))) there.add(part.partNumber());
        }
        marker = Boolean.TRUE.equals(page.isTruncated()) ? page.nextPartNumberMarker() : null;
      } while (marker != null);
    } catch (NoSuchUploadException e) {
      return null;
    } catch (SdkException e) {
      throw S3Errors.failure(e);
    }
    return there;
  }

  /**
   * Whether the bucket lists the upload among the open uploads of its key; true when these credentials may not list
   * uploads (ListParts alone then says).
   */
  private boolean open(Upload upload) throws IOException {
    String key = key(upload.object());
    try {
      String keyMarker = null, idMarker = null;
      while (true) {
        String k = keyMarker, i = idMarker;
        var page = client.listMultipartUploads(b -> b.bucket(config.bucket()).prefix(key).keyMarker(k).uploadIdMarker(i));
        for (var u : page.uploads()) if (u.key().equals(key) && u.uploadId().equals(upload.id())) return true;
        if (!Boolean.TRUE.equals(page.isTruncated())) return false;
        keyMarker = page.nextKeyMarker();
        idMarker = page.nextUploadIdMarker();
        if (keyMarker == null || !keyMarker.startsWith(key)) return false;
      }
    } catch (AwsServiceException e) {
      if (e.statusCode() == 403) return true;
      throw S3Errors.failure(e);
    } catch (SdkException e) {
      throw S3Errors.failure(e);
    }
  }

  /** Every open multipart upload under the prefix, keyed relative to it (size and ETag unknown: 0 and ""). */
  @Override
  public List<Upload> openUploads() throws IOException {
    List<Upload> open = new ArrayList<>();
    try {
      for (var u : client.listMultipartUploadsPaginator(b -> b.bucket(config.bucket()).prefix(config.prefix())).uploads()) {
        String relative = u.key().substring(config.prefix().length());
        open.add(new Upload(new StoreObject(u.key(), relative, 0, "", u.initiated() == null ? 0 : u.initiated().toEpochMilli()),
            u.uploadId()));
      }
    } catch (SdkException e) {
      throw S3Errors.failure(e);
    }
    return open;
  }

  @Override
  public int abortLostOpenings(Upload kept, long withinMillis) throws IOException {
    String key = key(kept.object());
    List<MultipartUpload> uploads = new ArrayList<>();
    try {
      client.listMultipartUploadsPaginator(b -> b.bucket(config.bucket()).prefix(key)).uploads().forEach(u -> {
        if (u.key().equals(key)) uploads.add(u);
      });
    } catch (SdkException e) {
      throw S3Errors.failure(e);
    }
    Instant at = uploads.stream().filter(u -> u.uploadId().equals(kept.id())).map(u -> u.initiated()).findFirst().orElse(null);
    if (at == null) return 0;
    int aborted = 0;
    for (var u : uploads) {
      if (u.uploadId().equals(kept.id()) || u.initiated() == null) continue;
      // the retries' own window, measured by this JVM and placed on the service's clock at the kept upload
      if (u.initiated().isBefore(at.minusMillis(withinMillis + 2_000)) || u.initiated().isAfter(at.plusMillis(1_000))) continue;
      abort(new Upload(kept.object(), u.uploadId()));
      aborted++;
    }
    return aborted;
  }

  /** Is the object at its key the one these parts make (its ETag the MD5 of their MD5s, "-" and their count)? */
  private boolean completed(Upload upload, SortedMap<Integer, String> receipts) throws IOException {
    String expected = multipartEtag(receipts.values());
    try {
      var head = client.headObject(b -> b.bucket(config.bucket()).key(key(upload.object())));
      String etag = ETags.unquote(head.eTag());
      return expected != null ? expected.equals(etag) : head.contentLength() == upload.object().size();
    } catch (NoSuchKeyException e) {
      return false;
    } catch (SdkException e) {
      throw S3Errors.failure(e);
    }
  }

  /** The ETag S3 gives an object completed from parts with these ETags; null when a part's is not an MD5. */
  static String multipartEtag(Collection<String> partEtags) {
    MessageDigest md5;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    for (String etag : partEtags) {
      String hex = ETags.unquote(etag);
      if (!hex.matches("[0-9a-fA-F]{32}")) return null;
      md5.update(HexFormat.of().parseHex(hex));
    }
    return HexFormat.of().formatHex(md5.digest()) + "-" + partEtags.size();
  }

  @Override
  public void abort(Upload upload) throws IOException {
    if (!upload.inParts()) return; // a failed PutObject leaves nothing
    try {
      client.abortMultipartUpload(b -> b.bucket(config.bucket()).key(key(upload.object())).uploadId(upload.id()));
    } catch (NoSuchUploadException e) {
      // aborted already (an abort repeated after an executor loss), or completed: either way nothing is left open
    } catch (SdkException e) {
      throw S3Errors.failure(e);
    }
  }

  /** Fails with the service's error if the bucket cannot be reached with these credentials. */
  void checkBucket() throws IOException {
    S3Errors.translated(() -> client.headBucket(b -> b.bucket(config.bucket())));
  }

  /** Copies from {@code source}, a bucket of the same service: CopyObject for a whole object, UploadPartCopy for a part. */
  InServiceCopy copyingFrom(BucketConfig source) {
    boolean payer = source.endpoint().requesterPays();
    SourceTags sourceTags = new SourceTags(client, source.endpoint().endpoint(), source.bucket(), payer);
    SourceGrants sourceGrants = new SourceGrants(client, source.bucket(), payer);
    return (upload, partNumber, range) -> S3Errors.translated(() -> upload.inParts()
        ? requests.copy(config.bucket(), key(upload.object()), part(upload.id(), partNumber), payer(payer,
        copyPartHeaders(upload.object(), source.bucket(), range)))
        : copyWhole(upload.object(), payer(payer, copyHeaders(upload.object(), source.bucket(),
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
    try {
      return requests.copy(config.bucket(), key(object), Map.of(), headers);
    } catch (AwsServiceException e) {
      if (!dropsTags || !headers.containsKey("x-amz-tagging-directive") || e.statusCode() != 501) throw e;
      headers.remove("x-amz-tagging-directive");
      String receipt = requests.copy(config.bucket(), key(object), Map.of(), headers);
      NO_TAGGING.add(place); // only once a copy without it went through
      return receipt;
    }
  }

  /** The source object's HEAD, sent at most once, for what a CopyObject does not keep by itself: its class, its Object Lock. */
  private final class SourceHead implements SourceRead<HeadObjectResponse> {
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

  /**
   * PutObject's (and CreateMultipartUpload's) headers: the source's system and user metadata (with its modification
   * time where it names none), its tags merged with the destination's, and the destination's write settings.
   */
  Map<String, String> putHeaders(StoreObject object, ObjectMetadata metadata) throws IOException {
    String mtime = ObjectMetadata.mtime(object.lastModifiedMillis());
    // S3 takes 2 KB of user metadata: the source's own come first, the time only where it fits beside them
    ObjectMetadata carried = userMetadataBytes(metadata) + ObjectMetadata.MTIME.length() + mtime.length() > MAX_USER_METADATA_BYTES
        ? metadata : metadata.withUserMetadataDefault(ObjectMetadata.MTIME, mtime);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/octet-stream");
    carried.headers().forEach((name, value) -> {
      if (!ObjectMetadata.LOCK_HEADERS.contains(name)) headers.put(name, value);
    });
    headers.putAll(lockHeaders(carried.headers()));
    carried.userMetadata().forEach((name, value) -> headers.put("x-amz-meta-" + name, value));
    writeSettings(headers, carried.storageClass());
    Map<String, String> tags = tags(config.writes().copyTags() ? carried.tags() : null);
    if (!tags.isEmpty()) headers.put("x-amz-tagging", tagging(tags));
    return headers;
  }

  /**
   * The source's Object Lock, for a bucket that has it (none for one without, which would refuse the write): its legal
   * hold, and its retention where it has not ended (a date past is refused, and there is nothing left to keep).
   */
  Map<String, String> lockHeaders(Map<String, String> source) throws IOException {
    Map<String, String> lock = new LinkedHashMap<>();
    if (!source.keySet().stream().anyMatch(ObjectMetadata.LOCK_HEADERS::contains) || !this.lock.locked()) return lock;
    String hold = source.get(ObjectMetadata.LEGAL_HOLD);
    if (hold != null) lock.put(ObjectMetadata.LEGAL_HOLD, hold);
    String mode = source.get(ObjectMetadata.LOCK_MODE);
    String until = source.get(ObjectMetadata.LOCK_UNTIL);
    if (mode != null && until != null) {
      try {
        if (Instant.parse(until).isAfter(Instant.now())) {
          lock.put(ObjectMetadata.LOCK_MODE, mode);
          lock.put(ObjectMetadata.LOCK_UNTIL, until);
        }
      } catch (DateTimeParseException e) {
        throw new StoreFailure(StoreFailure.Kind.FATAL, "the source's retention date '" + until + "' is not an ISO 8601 time", e);
      }
    }
    return lock;
  }

  /** S3's limit on an object's user metadata: names and values, in UTF-8 bytes. */
  static final int MAX_USER_METADATA_BYTES = 2048;

  private static int userMetadataBytes(ObjectMetadata metadata) {
    int bytes = 0;
    for (Map.Entry<String, String> e : metadata.userMetadata().entrySet()) {
      bytes += e.getKey().getBytes(StandardCharsets.UTF_8).length + e.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    return bytes;
  }

  /** What a CopyObject reads of its source besides the bytes, only where the destination's settings need it. */
  @FunctionalInterface
  interface SourceRead<T> {
    T read() throws IOException;
  }

  /**
   * CopyObject's headers: the source (only at its listed ETag), its metadata and tags kept by the service (replaced by
   * the merge with the destination's tags where it sets any, or by none where tags are not copied), its website
   * redirect (which a copy drops: read with a HEAD), the destination's write settings (the source's storage class, from
   * that HEAD, where it is kept).
   */
  Map<String, String> copyHeaders(StoreObject object, String sourceBucket, SourceRead<Map<String, String>> sourceTags,
      SourceRead<HeadObjectResponse> sourceHead) throws IOException {
    return copyHeaders(object, sourceBucket, sourceTags, sourceHead, Map::of);
  }

  /** ... with the source's grants (a CopyObject does not copy an ACL), read only where the ACL is copied. */
  Map<String, String> copyHeaders(StoreObject object, String sourceBucket, SourceRead<Map<String, String>> sourceTags,
      SourceRead<HeadObjectResponse> sourceHead, SourceRead<Map<String, String>> sourceGrants) throws IOException {
    Map<String, String> headers = copySource(object, sourceBucket);
    headers.put("x-amz-metadata-directive", "COPY");
    // a copy keeps the source's metadata but for its website redirect, which must be sent again (one HEAD, shared below)
    sourceHead.read().sdkHttpResponse().firstMatchingHeader(WEBSITE_REDIRECT).filter(v -> !v.isEmpty())
        .ifPresent(v -> headers.put(WEBSITE_REDIRECT, v));
    ObjectWrites writes = config.writes();
    writeSettings(headers, writes.keepsStorageClass() ? storageClassOf(sourceHead.read()) : "");
    if (writes.copiesAcl()) headers.putAll(sourceGrants.read());
    // a copy keeps the source's metadata, not its Object Lock: a bucket with Object Lock is given it
    if (lock.locked()) {
      HeadObjectResponse head = sourceHead.read();
      Map<String, String> source = new LinkedHashMap<>();
      for (String name : ObjectMetadata.LOCK_HEADERS) head.sdkHttpResponse().firstMatchingHeader(name).ifPresent(v -> source.put(name, v));
      headers.putAll(lockHeaders(source));
    }
    if (!writes.copyTags() || !writes.tags().isEmpty()) {
      Map<String, String> tags = tags(writes.copyTags() ? sourceTags.read() : null);
      headers.put("x-amz-tagging-directive", "REPLACE");
      if (!tags.isEmpty()) headers.put("x-amz-tagging", tagging(tags));
    }
    return headers;
  }

  /** The storage class a HEAD names ("" for the store's default). */
  private static String storageClassOf(HeadObjectResponse head) {
    String named = head.storageClassAsString();
    return named == null || named.equals("STANDARD") ? "" : named;
  }

  private static final String WEBSITE_REDIRECT = "x-amz-website-redirect-location";

  /** S3's most tags on one object. */
  static final int MAX_TAGS = 10;

  /**
   * The source's tags (null: none read) with the destination's over them; more than S3 takes fails the object at
   * once, before any request, with what to change.
   */
  private Map<String, String> tags(Map<String, String> source) throws StoreFailure {
    Map<String, String> tags = new TreeMap<>(source == null ? Map.of() : source);
    tags.putAll(config.writes().tags());
    if (tags.size() > MAX_TAGS) {
      throw new StoreFailure(StoreFailure.Kind.FATAL, "the source's " + (source == null ? 0 : source.size()) + " tags and"
          + " ferry.destination.tags make " + tags.size() + ", over S3's " + MAX_TAGS + " per object: name fewer in destination.tags,"
          + " or set destination.copy-tags = false");
    }
    return tags;
  }

  private static Map<String, String> copyPartHeaders(StoreObject object, String sourceBucket, ByteRange range) {
    Map<String, String> headers = copySource(object, sourceBucket);
    headers.put("x-amz-copy-source-range", range.httpRange());
    return headers;
  }

  private static Map<String, String> part(String uploadId, int partNumber) {
    Map<String, String> query = new LinkedHashMap<>();
    query.put("partNumber", Integer.toString(partNumber));
    query.put("uploadId", uploadId);
    return query;
  }

  /** The source object of a copy inside the service, only while it still has the listed ETag. */
  private static Map<String, String> copySource(StoreObject object, String sourceBucket) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("x-amz-copy-source", SdkHttpUtils.urlEncodeIgnoreSlashes(sourceBucket + "/" + object.key())
        + (object.versionId().isEmpty() ? "" : "?versionId=" + SdkHttpUtils.urlEncode(object.versionId())));
    if (!object.etag().isEmpty()) headers.put("x-amz-copy-source-if-match", "\"" + object.etag() + "\"");
    return headers;
  }

  /** The destination's storage class (the source's, {@code sourceClass}, where it keeps it) and encryption, as headers. */
  private void writeSettings(Map<String, String> headers, String sourceClass) {
    ObjectWrites writes = config.writes();
    Provider here = Provider.of(config.endpoint().endpoint());
    String storageClass = !writes.keepsStorageClass() ? writes.storageClass()
        : StorageClasses.keep(sourceClass, writes.classesFrom() == null ? here : writes.classesFrom(), here).storageClass();
    if (!storageClass.isEmpty()) headers.put("x-amz-storage-class", storageClass);
    if (!writes.acl().isEmpty() && !writes.copiesAcl()) headers.put("x-amz-acl", writes.acl());
    if (!writes.serverSideEncryption().isEmpty()) headers.put("x-amz-server-side-encryption", writes.serverSideEncryption());
    if (!writes.kmsKeyId().isEmpty()) headers.put("x-amz-server-side-encryption-aws-kms-key-id", writes.kmsKeyId());
  }

  private static String tagging(Map<String, String> tags) {
    return tags.entrySet().stream()
        .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
  }
}
