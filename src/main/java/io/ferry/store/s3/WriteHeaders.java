package io.ferry.store.s3;

import io.ferry.config.BucketConfig;
import io.ferry.config.ObjectWrites;
import io.ferry.config.Provider;
import io.ferry.store.ByteRange;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.StorageClasses;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * What an object is written with at a bucket: PutObject's and CreateMultipartUpload's headers (the source's metadata,
 * tags and Object Lock, the destination's write settings), and a copy's inside the service.
 */
final class WriteHeaders {
  private final BucketConfig config;
  /** Whether the bucket has Object Lock, asked only where a write carries it. */
  private final S3Destination.LockCheck locked;

  WriteHeaders(BucketConfig config, S3Destination.LockCheck locked) {
    this.config = config;
    this.locked = locked;
  }

  /**
   * PutObject's (and CreateMultipartUpload's) headers: the source's system and user metadata (with its modification
   * time where it names none), its tags merged with the destination's, and the destination's write settings.
   */
  Map<String, String> put(StoreObject object, ObjectMetadata metadata) throws IOException {
    String mtime = ObjectMetadata.mtime(object.lastModifiedMillis());
    // S3 takes 2 KB of user metadata: the source's own come first, the time only where it fits beside them
    ObjectMetadata carried = userMetadataBytes(metadata) + ObjectMetadata.MTIME.length() + mtime.length() > MAX_USER_METADATA_BYTES
        ? metadata : metadata.withUserMetadataDefault(ObjectMetadata.MTIME, mtime);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/octet-stream");
    carried.headers().forEach((name, value) -> {
      if (!ObjectMetadata.LOCK_HEADERS.contains(name)) headers.put(name, value);
    });
    headers.putAll(lock(carried.headers()));
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
  Map<String, String> lock(Map<String, String> source) throws IOException {
    Map<String, String> lock = new LinkedHashMap<>();
    if (!source.keySet().stream().anyMatch(ObjectMetadata.LOCK_HEADERS::contains) || !locked.locked()) return lock;
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
  Map<String, String> copy(StoreObject object, String sourceBucket, SourceRead<Map<String, String>> sourceTags,
      SourceRead<HeadObjectResponse> sourceHead) throws IOException {
    return copy(object, sourceBucket, sourceTags, sourceHead, Map::of);
  }

  /** ... with the source's grants (a CopyObject does not copy an ACL), read only where the ACL is copied. */
  Map<String, String> copy(StoreObject object, String sourceBucket, SourceRead<Map<String, String>> sourceTags,
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
    if (locked.locked()) {
      HeadObjectResponse head = sourceHead.read();
      Map<String, String> source = new LinkedHashMap<>();
      for (String name : ObjectMetadata.LOCK_HEADERS) head.sdkHttpResponse().firstMatchingHeader(name).ifPresent(v -> source.put(name, v));
      headers.putAll(lock(source));
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

  static Map<String, String> copyPart(StoreObject object, String sourceBucket, ByteRange range) {
    Map<String, String> headers = copySource(object, sourceBucket);
    headers.put("x-amz-copy-source-range", range.httpRange());
    return headers;
  }

  static Map<String, String> part(String uploadId, int partNumber) {
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
