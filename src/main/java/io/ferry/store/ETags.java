package io.ferry.store;

/** ETags are compared and passed on without quotes: stores, listings and inventories differ in whether they quote them. */
public final class ETags {
  private ETags() {}

  /** {@code etag} without its surrounding quotes; "" for null. */
  public static String unquote(String etag) {
    if (etag == null) return "";
    return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"") ? etag.substring(1, etag.length() - 1) : etag;
  }

  /** Whether {@code etag} has the form of the MD5 of an object's bytes (32 hex digits), not a multipart upload's ("-n"). */
  public static boolean isMd5(String etag) {
    return etag.length() == 32 && etag.chars().allMatch(c -> Character.digit(c, 16) >= 0);
  }
}
