package io.ferry.config;

/** What S3 allows a multipart upload, in the one place the config's rules, the planner and the S3 store take it from. */
public final class S3Limits {
  /** The smallest part (except an upload's last). */
  public static final long MIN_PART = 5L << 20;
  /** The largest part, and the largest object one CopyObject or PutObject may write. */
  public static final long MAX_PART = 5L << 30;
  /** The most parts of one upload. */
  public static final int MAX_PARTS = 10_000;

  private S3Limits() {}
}
