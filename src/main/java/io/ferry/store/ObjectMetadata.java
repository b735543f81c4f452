package io.ferry.store;

import io.ferry.store.checksums.Checksum;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * The object metadata a copy carries over (the standard content headers and user metadata, x-amz-meta-*), and the
 * checksum the source keeps of the object's bytes, when it keeps one (null otherwise).
 */
public record ObjectMetadata(String contentType, String contentEncoding, String contentDisposition, String cacheControl,
    Map<String, String> userMetadata, Checksum checksum) implements Serializable {
  public static final ObjectMetadata NONE = new ObjectMetadata(null, null, null, null, Map.of(), null);

  public ObjectMetadata(String contentType, String contentEncoding, String contentDisposition, String cacheControl,
      Map<String, String> userMetadata) {
    this(contentType, contentEncoding, contentDisposition, cacheControl, userMetadata, null);
  }

  /** Metadata read only when a destination keeps it (a bucket does; a directory does not). */
  @FunctionalInterface
  public interface Lazy {
    ObjectMetadata get() throws java.io.IOException;
  }

  public ObjectMetadata {
    userMetadata = new TreeMap<>(userMetadata == null ? Map.of() : userMetadata);
  }
}
