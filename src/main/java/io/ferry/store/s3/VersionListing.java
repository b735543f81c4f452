package io.ferry.store.s3;

import io.ferry.store.ETags;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
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

  static Page parse(byte[] answer) throws IOException {
    List<Entry> entries = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    boolean truncated = false;
    boolean urlEncoded = false;
    String nextKey = null;
    String nextVersion = null;
    boolean interleaved = false;
    boolean root = true;
    try {
      XMLStreamReader r = ObjectListing.XML.createXMLStreamReader(new ByteArrayInputStream(answer));
      Map<String, String> fields = null;
      String entryKind = null;
      boolean inPrefixes = false;
      while (r.hasNext()) {
        int event = r.next();
        if (event != XMLStreamConstants.START_ELEMENT && event != XMLStreamConstants.END_ELEMENT) continue;
        String name = r.getLocalName();
        if (root) {
          if (name.equals("Error")) throw S3Errors.failure(S3Answers.error(500, "", new String(answer, StandardCharsets.UTF_8)));
          if (!name.equals("ListVersionsResult") && !name.equals("ListBucketResult")) {
            throw new IOException("the store answered ListObjectVersions with <" + name + ">, not a listing");
          }
          interleaved = name.equals("ListVersionsResult");
          root = false;
          continue;
        }
        if (event == XMLStreamConstants.END_ELEMENT) {
          if (fields != null && name.equals(entryKind)) {
            entries.add(entry(fields, entryKind.equals("DeleteMarker")));
            fields = null;
          } else if (name.equals("CommonPrefixes")) {
            inPrefixes = false;
          }
          continue;
        }
        switch (name) {
          case "Version", "DeleteMarker" -> {
            if (fields == null) {
              fields = new HashMap<>();
              entryKind = name;
            }
          }
          case "CommonPrefixes" -> inPrefixes = true;
          default -> {
            if (fields != null) {
              if (FIELDS.contains(name)) fields.put(name, r.getElementText());
            } else if (inPrefixes && name.equals("Prefix")) {
              prefixes.add(r.getElementText());
            } else if (name.equals("IsTruncated")) {
              truncated = Boolean.parseBoolean(r.getElementText().trim());
            } else if (name.equals("NextKeyMarker")) {
              nextKey = r.getElementText();
            } else if (name.equals("NextVersionIdMarker")) {
              nextVersion = r.getElementText();
            } else if (name.equals("EncodingType")) {
              urlEncoded = r.getElementText().trim().equalsIgnoreCase("url");
            }
          }
        }
      }
    } catch (XMLStreamException | RuntimeException e) {
      throw new IOException("the store's ListObjectVersions answer could not be read: " + e.getMessage(), e);
    }
    if (urlEncoded) {
      try {
        entries.replaceAll(e -> new Entry(decode(e.key()), e.versionId(), e.marker(), e.latest(), e.millis(), e.size(), e.etag()));
        prefixes.replaceAll(VersionListing::decode);
        nextKey = nextKey == null ? null : decode(nextKey);
      } catch (IllegalArgumentException e) {
        throw new IOException("the store's ListObjectVersions answer has a key that is not URL-encoded as it says: " + e.getMessage(), e);
      }
    }
    return new Page(entries, prefixes, truncated, nextKey, nextVersion, interleaved);
  }

  private static Entry entry(Map<String, String> f, boolean marker) throws IOException {
    String key = f.get("Key");
    if (key == null) throw new IOException("the store's ListObjectVersions answer has an entry without a Key");
    String version = f.getOrDefault("VersionId", "null");
    String modified = f.get("LastModified");
    boolean latest = Boolean.parseBoolean(f.getOrDefault("IsLatest", "false").trim());
    long millis = modified == null ? 0 : DateUtils.parseIso8601Date(modified.trim()).toEpochMilli();
    long size = marker ? 0 : Long.parseLong(f.getOrDefault("Size", "0").trim());
    return new Entry(key, version.isEmpty() ? "null" : version, marker, latest, millis, size, marker ? "" : ETags.unquote(f.getOrDefault(
        "ETag", "")));
  }

  private static String decode(String s) {
    return ObjectListing.decode(s);
  }
}
