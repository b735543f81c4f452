package io.ferry.store.s3;

import io.ferry.store.ETags;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreFailure.Kind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.utils.DateUtils;

/**
 * A ListObjectsV2 answer read as it streams by, in one pass: the SDK builds a DOM of each page and then its model
 * objects, a cost per key that a run of small objects pays for every one of them.
 */
final class ObjectListing {
  private ObjectListing() {}

  /** An object, as listed. */
  record Entry(String key, long millis, String etag, long size, String storageClass) {}

  /** @param nextToken the continuation token of a truncated page; null for the last */
  record Page(List<Entry> entries, List<String> prefixes, boolean truncated, String nextToken) {
    /**
     * This page, once every key and folder is under {@code under} (a folder ending in '/' where listed by delimiter):
     * a key the store encoded without saying so, or decoded wrong, fails the listing rather than end a shard early.
     */
    Page under(String under, boolean level) throws StoreFailure {
      for (Entry e : entries) if (!e.key().startsWith(under)) throw outside("key", e.key(), under);
      for (String p : prefixes) if (!p.startsWith(under) || (level && !p.endsWith("/"))) throw outside("folder", p, under);
      return this;
    }

    private static StoreFailure outside(String what, String name, String under) {
      return new StoreFailure(Kind.FATAL, "the store's ListObjectsV2 answer for the prefix '"
          + under + "' has the " + what + " '" + name + "', which is not under it (a key encoded or decoded wrong)", null);
    }
  }

  private static final List<String> FIELDS = List.of("Key", "LastModified", "ETag", "Size", "StorageClass");
  private static final ListingXml.Shape SHAPE = new ListingXml.Shape("ListObjectsV2", Set.of("ListBucketResult"), Set.of("Contents"),
      FIELDS, Set.of("IsTruncated", "NextContinuationToken", "EncodingType"));

  static Page parse(byte[] answer) throws IOException {
    ListingXml.Answer a = ListingXml.read(answer, SHAPE);
    List<Entry> entries = new ArrayList<>(a.entries().size());
    List<String> prefixes = new ArrayList<>(a.prefixes());
    try {
      for (ListingXml.Entry e : a.entries()) entries.add(entry(e.fields(), a.urlEncoded()));
      if (a.urlEncoded()) prefixes.replaceAll(ObjectListing::decode);
    } catch (IllegalArgumentException e) {
      throw new StoreFailure(Kind.FATAL, "the store's ListObjectsV2 answer has a key that is not URL-encoded as it says: " + e.getMessage(),
          e);
    }
    String next = a.values().get("NextContinuationToken");
    if (a.truncated() && (next == null || next.isEmpty())) {
      throw new StoreFailure(Kind.FATAL, "the store answered a truncated ListObjectsV2"
          + " page without NextContinuationToken, so the listing cannot go on from it", null);
    }
    return new Page(entries, prefixes, a.truncated(), a.truncated() ? next : null);
  }

  private static Entry entry(String[] f, boolean urlEncoded) throws IOException {
    String key = f[0];
    if (key == null) throw new IOException("the store's ListObjectsV2 answer has an object without a Key");
    if (f[3] == null) throw new IOException("the store's ListObjectsV2 answer has an object without a Size: " + key);
    String name = urlEncoded ? decode(key) : key; // its own failure: a key not encoded as the answer says
    try {
      return new Entry(name, f[1] == null ? 0 : DateUtils.parseIso8601Date(f[1].trim()).toEpochMilli(),
          f[2] == null ? "" : ETags.unquote(f[2]), Long.parseLong(f[3].trim()), f[4] == null ? null : f[4].trim());
    } catch (RuntimeException e) { // a number or a time that is none
      throw new IOException("the store's ListObjectsV2 answer could not be read: " + e.getMessage(), e);
    }
  }

  /**
   * A key of an answer with {@code encoding-type=url}: '+' a space, %XX a byte, the bytes UTF-8. Strict, where
   * {@link java.net.URLDecoder} would turn bytes that are not UTF-8 into U+FFFD: a key decoded wrong is a key not copied.
   */
  static String decode(String s) {
    if (s.indexOf('%') < 0 && s.indexOf('+') < 0) return s;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '+') {
        bytes.write(' ');
      } else if (c == '%') {
        if (i + 2 >= s.length()) throw new IllegalArgumentException("a '%' without two hex digits in '" + s + "'");
        int hi = Character.digit(s.charAt(i + 1), 16);
        int lo = Character.digit(s.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) throw new IllegalArgumentException("a '%' without two hex digits in '" + s + "'");
        bytes.write(hi * 16 + lo);
        i += 2;
      } else {
        byte[] own = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < s.length()) own = s.substring(i, ++i + 1).getBytes(StandardCharsets.UTF_8);
        bytes.write(own, 0, own.length);
      }
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("'" + s + "' decodes to bytes that are not UTF-8");
    }
  }
}
