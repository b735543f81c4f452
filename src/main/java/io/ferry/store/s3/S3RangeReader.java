package io.ferry.store.s3;

import io.ferry.store.ByteRange;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.RangeReader;
import io.ferry.store.StoreObject;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.s3.http.ResponseBody;
import io.ferry.store.s3.http.S3Errors;
import io.ferry.store.s3.http.SignedRequests;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import software.amazon.awssdk.http.Abortable;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
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

  private final SourceTags tags;
  private final SourceGrants grants;

  S3RangeReader(SignedRequests gets, S3Client client, String endpoint, String bucket) {
    this.gets = gets;
    this.client = client;
    this.bucket = bucket;
    this.tags = new SourceTags(client, endpoint, bucket);
    this.grants = new SourceGrants(client, bucket, false);
  }

  @Override
  public Map<String, String> grants(StoreObject object) throws IOException {
    return grants.of(object);
  }

  @Override
  public InputStream open(StoreObject object, ByteRange range) throws IOException {
    boolean whole = range.offset() == 0 && range.length() == object.size();
    return S3Errors.translated(() -> gets.get(bucket, object.key(), object.versionId(), range, object.etag(), whole));
  }

  @Override
  public ObjectMetadata metadataOf(InputStream opened, StoreObject object, boolean tags) throws IOException {
    if (!(opened instanceof ResponseBody r)) return ObjectMetadata.NONE;
    ObjectMetadata read = ObjectMetadata.fromAnswer(r::header, r.userMetadata(), checksumOf(r::header, object.etag()));
    return tags ? read.withTags(this.tags.of(object, r.header("x-amz-tagging-count"), true)) : read;
  }

  @Override
  public ObjectMetadata metadata(StoreObject object, boolean tags) throws IOException {
    HeadObjectResponse r = S3Errors.translated(() -> client.headObject(b -> b.bucket(bucket).key(object.key())
        .versionId(object.versionId().isEmpty() ? null : object.versionId()).checksumMode(ChecksumMode.ENABLED)));
    Function<String, Optional<String>> header = name -> r.sdkHttpResponse().firstMatchingHeader(name);
    ObjectMetadata read = ObjectMetadata.fromAnswer(header, r.metadata(), checksumOf(header, object.etag()));
    return tags ? read.withTags(this.tags.of(object, header.apply("x-amz-tagging-count"), false)) : read;
  }

  @Override
  public Checksum expected(InputStream opened, StoreObject object) {
    return opened instanceof ResponseBody r ? checksumOf(r::header, object.etag()) : null;
  }

  /** The stored checksum an object's answer carries; else its ETag, where that is the MD5 of its bytes. */
  static Checksum checksumOf(Function<String, Optional<String>> header, String etag) {
    Checksum stored = storedChecksum(header);
    if (stored != null) return stored;
    // The ETag of an object encrypted with a KMS or customer key is not its MD5 (S3 documents it as opaque then).
    String encryption = header.apply("x-amz-server-side-encryption").orElse("");
    boolean md5 = etag.matches("[0-9a-fA-F]{32}") && !encryption.startsWith("aws:kms")
        && header.apply("x-amz-server-side-encryption-customer-algorithm").isEmpty();
    return md5 ? new Checksum(Checksum.Algorithm.MD5, etag.toLowerCase(Locale.ROOT), false) : null;
  }

  @Override
  public boolean keepsChecksums() {
    return true;
  }

  /** The flexible checksum an answer carries ({@code x-amz-checksum-*}), the strongest first; null if none. */
  static Checksum storedChecksum(Function<String, Optional<String>> header) {
    boolean composite = header.apply("x-amz-checksum-type").map(t -> t.equalsIgnoreCase("COMPOSITE")).orElse(false);
    for (Checksum.Algorithm a : new Checksum.Algorithm[] {Checksum.Algorithm.CRC64NVME, Checksum.Algorithm.CRC32C,
        Checksum.Algorithm.CRC32, Checksum.Algorithm.SHA256, Checksum.Algorithm.SHA1}) {
      Optional<String> value = header.apply("x-amz-checksum-" + a.label());
      if (value.isPresent() && !value.get().isBlank()) {
        String v = value.get().trim();
        // a multipart object's checksum of its parts' checksums ends "-<parts>"; some stores leave the suffix off
        return new Checksum(a, v, composite || v.matches(".*-\\d+"));
      }
    }
    return null;
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
