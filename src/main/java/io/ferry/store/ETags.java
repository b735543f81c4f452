package io.ferry.store;

/** ETags are compared and passed on without quotes: stores, listings and inventories differ in whether they quote them. */
public final class ETags {
  private ETags() {}

  /** {@code etag} without its surrounding quotes; "" for null. */
  public static String unquote(String etag) {
    if (etag == null) return "";
    return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"") ? etag.substring(1, etag.length() - 1) : etag;
  }
}
