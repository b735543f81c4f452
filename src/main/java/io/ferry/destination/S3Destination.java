package io.ferry.destination;

import io.ferry.config.DestinationConfig;
import io.ferry.copy.BucketSink;
import io.ferry.copy.ObjectMetadata;
import io.ferry.plan.ByteRange;
import io.ferry.plan.SourceObject;
import io.ferry.source.S3Lister;
import io.ferry.source.SignedRequests;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * A bucket as destination. Objects up to the part size are written in one request (PutObject, or CopyObject inside
 * the service), which S3 makes visible atomically; larger ones through a multipart upload that the driver opens,
 * whose parts any executor uploads (UploadPart, or UploadPartCopy with a source range), and that the commit completes
 * with every part's ETag in order, or aborts. Storage class, encryption and tags apply to every object written;
 * content headers and user metadata come from the source. The writes of the copy (PutObject, UploadPart, CopyObject,
 * UploadPartCopy) go out as {@link SignedRequests}; the few control requests through the client.
 */
public final class S3Destination implements BucketSink {
  private final S3Client client;
  private final SignedRequests requests;
  private final DestinationConfig config;

  /** A destination for control requests only (the driver's checks, listing, aborts). */
  public S3Destination(S3Client client, DestinationConfig config) {
    this(client, null, config);
  }

  /** @param requests where the copy's writes go out (on the executors) */
  public S3Destination(S3Client client, SignedRequests requests, DestinationConfig config) {
    this.client = client;
    this.requests = requests;
    this.config = config;
  }

  public String key(SourceObject object) {
    return config.prefix() + object.relativeKey();
  }

  @Override
  public String destination(SourceObject object) {
    return "s3://" + config.bucket() + "/" + key(object);
  }

  /** Fails with the service's error if the bucket cannot be reached with these credentials. */
  public void checkBucket() {
    client.headBucket(b -> b.bucket(config.bucket()));
  }

  /** Lists what is already at the destination under its prefix, keyed by the source-relative key. */
  public void list(java.util.function.BiConsumer<String, SourceObject> consumer) {
    var asSource = io.ferry.config.SourceConfig.bucket(config.endpoint(), config.bucket(), config.prefix(), List.of("**"), List.of());
    new S3Lister(client, asSource).list(o -> consumer.accept(o.relativeKey(), o));
  }

  public String openUpload(SourceObject object, ObjectMetadata metadata) {
    CreateMultipartUploadRequest.Builder request = CreateMultipartUploadRequest.builder().bucket(config.bucket()).key(key(object))
        .contentType(metadata.contentType()).contentEncoding(metadata.contentEncoding())
        .contentDisposition(metadata.contentDisposition()).cacheControl(metadata.cacheControl()).metadata(metadata.userMetadata());
    applyWriteSettings(request::storageClass, request::serverSideEncryption, request::ssekmsKeyId, request::tagging);
    return client.createMultipartUpload(request.build()).uploadId();
  }

  public void completeUpload(SourceObject object, String uploadId, Map<Integer, String> partEtags) {
    List<CompletedPart> parts = new ArrayList<>();
    partEtags.forEach((number, etag) -> parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build()));
    client.completeMultipartUpload(b -> b.bucket(config.bucket()).key(key(object)).uploadId(uploadId)
        .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));
  }

  public void abortUpload(SourceObject object, String uploadId) {
    client.abortMultipartUpload(b -> b.bucket(config.bucket()).key(key(object)).uploadId(uploadId));
  }

  @Override
  public String putObject(SourceObject object, Body body, long length, ObjectMetadata metadata) throws IOException {
    return writes().put(config.bucket(), key(object), Map.of(), putHeaders(metadata), body.open(), length);
  }

  /** PutObject's headers: the source's content headers and user metadata, and the destination's write settings. */
  Map<String, String> putHeaders(ObjectMetadata metadata) {
    Map<String, String> headers = new LinkedHashMap<>();
    contentHeaders(metadata, headers);
    writeSettings(headers);
    return headers;
  }

  @Override
  public String uploadPart(SourceObject object, String uploadId, int partNumber, Body body, long length) throws IOException {
    return writes().put(config.bucket(), key(object), part(uploadId, partNumber), Map.of(), body.open(), length);
  }

  @Override
  public String copyObject(SourceObject object, String sourceBucket) throws IOException {
    return writes().copy(config.bucket(), key(object), Map.of(), copyHeaders(object, sourceBucket));
  }

  /** CopyObject's headers: the source (only at its listed ETag), its metadata kept, the destination's write settings. */
  Map<String, String> copyHeaders(SourceObject object, String sourceBucket) {
    Map<String, String> headers = copySource(object, sourceBucket);
    headers.put("x-amz-metadata-directive", "COPY");
    writeSettings(headers);
    if (headers.containsKey("x-amz-tagging")) headers.put("x-amz-tagging-directive", "REPLACE");
    return headers;
  }

  @Override
  public String copyPart(SourceObject object, String sourceBucket, String uploadId, int partNumber, ByteRange range) throws IOException {
    Map<String, String> headers = copySource(object, sourceBucket);
    headers.put("x-amz-copy-source-range", range.httpRange());
    return writes().copy(config.bucket(), key(object), part(uploadId, partNumber), headers);
  }

  private SignedRequests writes() {
    if (requests == null) throw new IllegalStateException("this destination was built for control requests only");
    return requests;
  }

  private static Map<String, String> part(String uploadId, int partNumber) {
    Map<String, String> query = new LinkedHashMap<>();
    query.put("partNumber", Integer.toString(partNumber));
    query.put("uploadId", uploadId);
    return query;
  }

  /** The source object of a copy inside the service, only while it still has the listed ETag. */
  private static Map<String, String> copySource(SourceObject object, String sourceBucket) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("x-amz-copy-source", SdkHttpUtils.urlEncodeIgnoreSlashes(sourceBucket + "/" + object.key()));
    if (!object.etag().isEmpty()) headers.put("x-amz-copy-source-if-match", "\"" + object.etag() + "\"");
    return headers;
  }

  /** The source's content headers and user metadata, as PutObject carries them. */
  private static void contentHeaders(ObjectMetadata metadata, Map<String, String> headers) {
    headers.put("Content-Type", metadata.contentType() == null ? "application/octet-stream" : metadata.contentType());
    if (metadata.contentEncoding() != null) headers.put("Content-Encoding", metadata.contentEncoding());
    if (metadata.contentDisposition() != null) headers.put("Content-Disposition", metadata.contentDisposition());
    if (metadata.cacheControl() != null) headers.put("Cache-Control", metadata.cacheControl());
    metadata.userMetadata().forEach((name, value) -> headers.put("x-amz-meta-" + name, value));
  }

  /** {@link #applyWriteSettings} as request headers. */
  private void writeSettings(Map<String, String> headers) {
    applyWriteSettings(v -> headers.put("x-amz-storage-class", v), v -> headers.put("x-amz-server-side-encryption", v),
        v -> headers.put("x-amz-server-side-encryption-aws-kms-key-id", v), v -> headers.put("x-amz-tagging", v));
  }

  /** The destination's storage class, encryption and tags, on whichever request writes an object. */
  private void applyWriteSettings(Consumer<String> storageClass, Consumer<String> encryption, Consumer<String> kmsKeyId,
      Consumer<String> tagging) {
    if (!config.storageClass().isEmpty()) storageClass.accept(config.storageClass());
    if (!config.serverSideEncryption().isEmpty()) encryption.accept(config.serverSideEncryption());
    if (!config.kmsKeyId().isEmpty()) kmsKeyId.accept(config.kmsKeyId());
    if (!config.tags().isEmpty()) tagging.accept(tagging());
  }

  private String tagging() {
    return config.tags().entrySet().stream()
        .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
  }
}
