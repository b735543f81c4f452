package io.ferry.destination;

import io.ferry.config.DestinationConfig;
import io.ferry.copy.BucketSink;
import io.ferry.copy.ObjectMetadata;
import io.ferry.plan.ByteRange;
import io.ferry.plan.SourceObject;
import io.ferry.source.S3Lister;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.TaggingDirective;

/**
 * A bucket as destination. Objects up to the part size are written in one request (PutObject, or CopyObject inside
 * the service), which S3 makes visible atomically; larger ones through a multipart upload that the driver opens,
 * whose parts any executor uploads (UploadPart, or UploadPartCopy with a source range), and that the commit completes
 * with every part's ETag in order, or aborts. Storage class, encryption and tags apply to every object written;
 * content headers and user metadata come from the source.
 */
public final class S3Destination implements BucketSink {
  private final S3Client client;
  private final DestinationConfig config;

  public S3Destination(S3Client client, DestinationConfig config) {
    this.client = client;
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
  public String putObject(SourceObject object, Body body, long length, ObjectMetadata metadata) {
    PutObjectRequest.Builder request = PutObjectRequest.builder().bucket(config.bucket()).key(key(object)).contentLength(length)
        .contentType(metadata.contentType()).contentEncoding(metadata.contentEncoding())
        .contentDisposition(metadata.contentDisposition()).cacheControl(metadata.cacheControl()).metadata(metadata.userMetadata());
    applyWriteSettings(request::storageClass, request::serverSideEncryption, request::ssekmsKeyId, request::tagging);
    String type = metadata.contentType() == null ? "application/octet-stream" : metadata.contentType();
    return S3Lister.unquote(client.putObject(request.build(), RequestBody.fromContentProvider(provider(body), length, type)).eTag());
  }

  @Override
  public String uploadPart(SourceObject object, String uploadId, int partNumber, Body body, long length) {
    return S3Lister.unquote(client.uploadPart(b -> b.bucket(config.bucket()).key(key(object)).uploadId(uploadId).partNumber(partNumber)
        .contentLength(length), RequestBody.fromContentProvider(provider(body), length, "application/octet-stream")).eTag());
  }

  @Override
  public String copyObject(SourceObject object, String sourceBucket) {
    CopyObjectRequest.Builder request = CopyObjectRequest.builder()
        .sourceBucket(sourceBucket).sourceKey(object.key())
        .destinationBucket(config.bucket()).destinationKey(key(object))
        .metadataDirective(MetadataDirective.COPY);
    if (!object.etag().isEmpty()) request.copySourceIfMatch("\"" + object.etag() + "\"");
    applyWriteSettings(request::storageClass, request::serverSideEncryption, request::ssekmsKeyId,
        tagging -> request.taggingDirective(TaggingDirective.REPLACE).tagging(tagging));
    return S3Lister.unquote(client.copyObject(request.build()).copyObjectResult().eTag());
  }

  @Override
  public String copyPart(SourceObject object, String sourceBucket, String uploadId, int partNumber, ByteRange range) {
    return S3Lister.unquote(client.uploadPartCopy(b -> {
      b.sourceBucket(sourceBucket).sourceKey(object.key()).destinationBucket(config.bucket()).destinationKey(key(object))
          .uploadId(uploadId).partNumber(partNumber).copySourceRange(range.httpRange());
      if (!object.etag().isEmpty()) b.copySourceIfMatch("\"" + object.etag() + "\"");
    }).copyPartResult().eTag());
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

  private static ContentStreamProvider provider(Body body) {
    return () -> {
      try {
        return body.open();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
  }
}
