package io.ferry.manifest;

import java.io.IOException;
import java.io.InputStream;

/** Where a manifest's files are read from: a bucket (with the source's credentials) or the local filesystem. */
public interface ManifestFiles {
  /** Its bytes from {@code offset} to the end. */
  InputStream open(String location, long offset) throws IOException;

  long size(String location) throws IOException;

  /** The location of {@code key} in {@code bucket}, as {@link #open} takes it. */
  default String inBucket(String bucket, String key) {
    return "s3://" + bucket + "/" + key;
  }
}
