package io.ferry.config;

import java.io.Serializable;

/** One side of a migration: a bucket of an S3-compatible service, or a directory. */
public sealed interface StoreConfig extends Serializable permits BucketConfig, DirectoryConfig {
  /** For messages and reports: s3://bucket/prefix at the endpoint, or the directory. */
  String describe();
}
