package io.ferry.copy;

import io.ferry.plan.ByteRange;
import io.ferry.plan.SourceObject;
import java.io.IOException;
import java.io.InputStream;

/** What the transfers need of a bucket destination; {@code destination.S3Destination} implements it. */
public interface BucketSink {
  /** Opens a body; may be called again if the client must resend it (each call opens a fresh stream). */
  @FunctionalInterface
  interface Body {
    InputStream open() throws IOException;
  }

  /** s3://bucket/key of the object's copy, for the dataset. */
  String destination(SourceObject object);

  /** Writes a whole object in one request. Returns its ETag. */
  String putObject(SourceObject object, Body body, long length, ObjectMetadata metadata) throws IOException;

  /** Uploads one part of an open multipart upload. Returns the part's ETag. */
  String uploadPart(SourceObject object, String uploadId, int partNumber, Body body, long length) throws IOException;

  /** Copies a whole object inside the service (CopyObject), carrying its metadata. Returns its ETag. */
  String copyObject(SourceObject object, String sourceBucket) throws IOException;

  /** Copies a byte range of the source into one part inside the service (UploadPartCopy). Returns the part's ETag. */
  String copyPart(SourceObject object, String sourceBucket, String uploadId, int partNumber, ByteRange range) throws IOException;
}
