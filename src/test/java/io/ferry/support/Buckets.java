package io.ferry.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/** Reads a bucket back for assertions: every object's SHA-256 by key (under a prefix), open multipart uploads. */
public final class Buckets {
  private Buckets() {}

  public static Map<String, String> digests(S3Client s3, String bucket, String prefix) {
    Map<String, String> digests = new TreeMap<>();
    for (S3Object o : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents()) {
      digests.put(o.key().substring(prefix.length()), sha256(s3, bucket, o.key()));
    }
    return digests;
  }

  public static String sha256(S3Client s3, String bucket, String key) {
    MessageDigest sha = SeedData.sha256();
    byte[] buffer = new byte[1 << 20];
    try (InputStream in = s3.getObject(b -> b.bucket(bucket).key(key))) {
      for (int n; (n = in.read(buffer)) > 0; ) sha.update(buffer, 0, n);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  public static int openUploads(S3Client s3, String bucket) {
    return s3.listMultipartUploads(b -> b.bucket(bucket)).uploads().size();
  }
}
