package io.ferry.store;

import io.ferry.store.checksums.Checksum;
import java.io.IOException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What a copy carries over around an object's bytes: the system metadata S3 lets a writer set ({@link #HEADERS}), its
 * Object Lock ({@link #LOCK_HEADERS}), the user metadata (x-amz-meta-*), the tags, the storage class, and the checksum
 * the source keeps of the bytes.
 *
 * @param headers the {@link #HEADERS} and {@link #LOCK_HEADERS} the source has, by their names there
 * @param tags the object's tags; null when they were not read (unwanted, or the source keeps none it can tell)
 * @param storageClass the source's storage class ("" for the store's default, which S3 does not name in answers)
 * @param checksum the source's checksum of the bytes, null when it keeps none
 */
public record ObjectMetadata(Map<String, String> headers, Map<String, String> userMetadata, Map<String, String> tags,
    String storageClass, Checksum checksum) implements Serializable {
  /** The system metadata a PutObject or CreateMultipartUpload sets, as S3 defines it. */
  public static final List<String> HEADERS = List.of("Content-Type", "Content-Encoding", "Content-Disposition", "Cache-Control",
      "Content-Language", "Expires", "x-amz-website-redirect-location");

  /**
   * Object Lock's headers, as answers show them (to a caller allowed to read them) and writes set them: retention mode
   * and date, legal hold. Kept in {@link #headers}; written only to a bucket with Object Lock.
   */
  public static final String LOCK_MODE = "x-amz-object-lock-mode";
  public static final String LOCK_UNTIL = "x-amz-object-lock-retain-until-date";
  public static final String LEGAL_HOLD = "x-amz-object-lock-legal-hold";
  public static final List<String> LOCK_HEADERS = List.of(LOCK_MODE, LOCK_UNTIL, LEGAL_HOLD);

  /**
   * An ACL's grants, as a write sets them ({@code destination.acl = copy}): each the grantees of one permission. Kept in
   * {@link #headers} where read.
   */
  public static final String GRANT_READ = "x-amz-grant-read";
  public static final String GRANT_READ_ACP = "x-amz-grant-read-acp";
  public static final String GRANT_WRITE_ACP = "x-amz-grant-write-acp";
  public static final String GRANT_FULL_CONTROL = "x-amz-grant-full-control";

  /**
   * rclone's user-metadata names for a file's modification time (seconds since the epoch, with nine decimals), mode
   * (octal) and owner, so an rclone user's objects and Ferry's read alike.
   */
  public static final String MTIME = "mtime";
  public static final String MODE = "mode";
  public static final String UID = "uid";
  public static final String GID = "gid";

  public static final ObjectMetadata NONE = new ObjectMetadata(Map.of(), Map.of(), null, "", null);

  public ObjectMetadata {
    headers = new TreeMap<>(headers == null ? Map.of() : headers);
    userMetadata = new TreeMap<>(userMetadata == null ? Map.of() : userMetadata);
    tags = tags == null ? null : new TreeMap<>(tags);
    storageClass = storageClass == null ? "" : storageClass;
  }

  /** Content headers and user metadata only. */
  public ObjectMetadata(String contentType, String contentEncoding, String contentDisposition, String cacheControl,
      Map<String, String> userMetadata) {
    this(headers(contentType, contentEncoding, contentDisposition, cacheControl), userMetadata, null, "", null);
  }

  /** What an answer to a GET or HEAD says of its object (its headers, by a case-insensitive look-up). */
  public static ObjectMetadata fromAnswer(Function<String, Optional<String>> header, Map<String, String> userMetadata, Checksum checksum) {
    Map<String, String> headers = new TreeMap<>();
    for (String name : HEADERS) header.apply(name).filter(v -> !v.isEmpty()).ifPresent(v -> headers.put(name, v));
    for (String name : LOCK_HEADERS) header.apply(name).filter(v -> !v.isEmpty()).ifPresent(v -> headers.put(name, v));
    String storageClass = header.apply("x-amz-storage-class").orElse("").toUpperCase(Locale.ROOT);
    return new ObjectMetadata(headers, userMetadata, null, storageClass.equals("STANDARD") ? "" : storageClass, checksum);
  }

  private static Map<String, String> headers(String type, String encoding, String disposition, String cacheControl) {
    Map<String, String> h = new TreeMap<>();
    if (type != null) h.put("Content-Type", type);
    if (encoding != null) h.put("Content-Encoding", encoding);
    if (disposition != null) h.put("Content-Disposition", disposition);
    if (cacheControl != null) h.put("Cache-Control", cacheControl);
    return h;
  }

  public String contentType() {
    return headers.get("Content-Type");
  }

  /** With the grant headers of an ACL read. */
  public ObjectMetadata withGrants(Map<String, String> grants) {
    Map<String, String> all = new TreeMap<>(headers);
    all.putAll(grants);
    return new ObjectMetadata(all, userMetadata, tags, storageClass, checksum);
  }

  public ObjectMetadata withTags(Map<String, String> read) {
    return new ObjectMetadata(headers, userMetadata, read, storageClass, checksum);
  }

  /** With a user-metadata entry added where the source has none of that name (case-insensitively, as S3 names them). */
  public ObjectMetadata withUserMetadataDefault(String name, String value) {
    boolean has = userMetadata.keySet().stream().anyMatch(k -> k.equalsIgnoreCase(name));
    if (has) return this;
    Map<String, String> user = new TreeMap<>(userMetadata);
    user.put(name, value);
    return new ObjectMetadata(headers, user, tags, storageClass, checksum);
  }

  /**
   * A modification time in rclone's form (seconds since the epoch, with up to nine decimals; an integer too), in epoch
   * milliseconds; {@code Long.MIN_VALUE} where it does not parse.
   */
  public static long mtimeMillis(String text) {
    try {
      return new BigDecimal(text.trim()).movePointRight(3).setScale(0, RoundingMode.FLOOR).longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      return Long.MIN_VALUE;
    }
  }

  /** rclone's form of a modification time: seconds since the epoch, a point, nine digits of nanoseconds. */
  public static String mtime(long epochMillis) {
    return Math.floorDiv(epochMillis, 1000) + "." + String.format(Locale.ROOT, "%09d", Math.floorMod(epochMillis, 1000) * 1_000_000L);
  }

  /** Metadata read only when a destination keeps it (a bucket does; a directory does not). */
  @FunctionalInterface
  public interface Lazy {
    ObjectMetadata get() throws IOException;
  }
}
