package io.ferry.config;

import java.util.Locale;

/** The kind of S3 service at an endpoint, where kinds differ in what they name alike (storage classes). */
public enum Provider {
  AWS, IBM_COS, OSS, OTHER;

  /** From the endpoint's host; none (the SDK's default) is AWS. Ceph, MinIO and the rest are OTHER. */
  public static Provider of(String endpoint) {
    String host = endpoint == null ? "" : endpoint.toLowerCase(Locale.ROOT).replaceFirst("^[a-z]+://", "").replaceFirst("[:/].*$", "");
    if (host.isEmpty() || host.endsWith(".amazonaws.com") || host.endsWith(".amazonaws.com.cn")) return AWS;
    if (host.endsWith(".appdomain.cloud") || host.endsWith(".softlayer.net")) return IBM_COS;
    if (host.endsWith(".aliyuncs.com")) return OSS;
    return OTHER;
  }
}
