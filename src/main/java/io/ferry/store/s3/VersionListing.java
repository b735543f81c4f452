package io.ferry.store.s3;

import io.ferry.store.ETags;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.utils.DateUtils;

/**
 * A ListObjectVersions answer read in its own order. The SDK parts versions from delete markers, and the order between
 * the two kinds is then lost where they have one time (stores keep seconds, S3Mock gives a marker the time of what it
 * covers); the answer lists each key's versions and markers together, newest first, and that order is the history.
 */
final class VersionListing {
  private VersionListing() {}

  /** A version or a delete marker, as listed. */
  record Entry(String key, String versionId, boolean marker, boolean latest, long millis, long size, String etag) {}

  /**
   * @param entries in the answer's order: by key, each key's newest first
   * @param prefixes the folders, by delimiter
   * @param interleaved the answer is S3's {@code ListVersionsResult}, whose order between versions and markers is the
   *     history's; S3Mock answers a {@code ListBucketResult} with the two kinds apart
   */
  record Page(List<Entry> entries, List<String> prefixes, boolean truncated, String nextKeyMarker, String nextVersionIdMarker,
      boolean interleaved) {}

  private static final List<String> FIELDS = List.of("Key", "VersionId", "IsLatest", "LastModified", "ETag", "Size");
  // S3Mock answers a ListBucketResult, with the two kinds apart
  private static final ListingXml.Shape SHAPE = new ListingXml.Shape("ListObjectVersions", Set.of("ListVersionsResult",
      "ListBucketResult"), Set.of("Version", "DeleteMarker"), FIELDS, Set.of("IsTruncated", "NextKeyMarker", "NextVersionIdMarker",
      "EncodingType"));

  static Page parse(byte[] answer) throws IOException {
    ListingXml.Answer a = ListingXml.read(answer, SHAPE);
    List<Entry> entries = new ArrayList<>(a.entries().size());
    List<String> prefixes = new ArrayList<>(a.prefixes());
    String nextKey = a.values().get("NextKeyMarker");
    try {
      for (ListingXml.Entry e : a.entries()) entries.add(entry(e.fields(), e.kind().equals("DeleteMarker"), a.urlEncoded()));
      if (a.urlEncoded()) {
        prefixes.replaceAll(VersionListing::decode);
        nextKey = nextKey == null ? null : decode(nextKey);
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("the store's ListObjectVersions answer has a key that is not URL-encoded as it says: " + e.getMessage(), e);
    }
    return new Page(entries, prefixes, a.truncated(), nextKey, a.values().get("NextVersionIdMarker"),
        a.root().equals("ListVersionsResult"));
  }

  private static Entry entry(String[] f, boolean marker, boolean urlEncoded) throws IOException {
    String key = f[0];
    if (key == null) throw new IOException("the store's ListObjectVersions answer has an entry without a Key");
    String version = f[1] == null ? "null" : f[1];
    boolean latest = Boolean.parseBoolean(f[2] == null ? "false" : f[2].trim());
    String name = urlEncoded ? decode(key) : key; // its own failure: a key not encoded as the answer says
    try {
      long millis = f[3] == null ? 0 : DateUtils.parseIso8601Date(f[3].trim()).toEpochMilli();
      long size = marker ? 0 : Long.parseLong(f[5] == null ? "0" : f[5].trim());
      return new Entry(name, version.isEmpty() ? "null" : version, marker, latest, millis, size, marker ? ""
          : ETags.unquote(f[4] == null ? "" : f[4]));
    } catch (RuntimeException e) { // a number or a time that is none
      throw new IOException("the store's ListObjectVersions answer could not be read: " + e.getMessage(), e);
    }
  }

  private static String decode(String s) {
    return ObjectListing.decode(s);
  }
}
