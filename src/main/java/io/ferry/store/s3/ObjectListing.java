package io.ferry.store.s3;

import io.ferry.store.ETags;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A ListObjectsV2 answer read as it streams by: the SDK builds a DOM of each page and then its model objects, which
 * took about a tenth of a small-object run's CPU (bench/results, issue 25's profile); a page here is one pass.
 */
final class ObjectListing {
  private ObjectListing() {}

  /** An object, as listed. */
  record Entry(String key, long millis, String etag, long size, String storageClass) {}

  /** @param nextToken the continuation token of a truncated page; null for the last */
  record Page(List<Entry> entries, List<String> prefixes, boolean truncated, String nextToken) {}

  private static final XMLInputFactory XML = xml();

  private static XMLInputFactory xml() {
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false); // a listing has none: no entity of the answer's is resolved
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    return f;
  }

  static Page parse(byte[] answer) throws IOException {
    List<Entry> entries = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    boolean truncated = false;
    boolean urlEncoded = false;
    String next = null;
    try {
      XMLStreamReader r = XML.createXMLStreamReader(new ByteArrayInputStream(answer));
      String key = null;
      long millis = 0;
      String etag = "";
      long size = 0;
      String storageClass = null;
      boolean inContents = false;
      boolean inPrefixes = false;
      int depth = 0;
      while (r.hasNext()) {
        int event = r.next();
        if (event == XMLStreamConstants.END_ELEMENT) {
          depth--;
          String name = r.getLocalName();
          if (inContents && name.equals("Contents")) {
            if (key == null) throw new IOException("the store's ListObjectsV2 answer has an object without a Key");
            entries.add(new Entry(key, millis, etag, size, storageClass));
            inContents = false;
          } else if (name.equals("CommonPrefixes")) {
            inPrefixes = false;
          }
          continue;
        }
        if (event != XMLStreamConstants.START_ELEMENT) continue;
        depth++;
        String name = r.getLocalName();
        if (depth == 2 && name.equals("Contents")) {
          inContents = true;
          key = null;
          millis = 0;
          etag = "";
          size = 0;
          storageClass = null;
        } else if (depth == 2 && name.equals("CommonPrefixes")) {
          inPrefixes = true;
        } else if (inContents && depth == 3) {
          switch (name) { // getElementText reads to the end element: the depth goes back by itself
            case "Key" -> key = text(r);
            case "LastModified" -> millis = Instant.parse(text(r).trim()).toEpochMilli();
            case "ETag" -> etag = ETags.unquote(text(r));
            case "Size" -> size = Long.parseLong(text(r).trim());
            case "StorageClass" -> storageClass = text(r).trim();
            default -> { }
          }
        } else if (inPrefixes && depth == 3 && name.equals("Prefix")) {
          prefixes.add(text(r));
        } else if (depth == 2) {
          switch (name) {
            case "IsTruncated" -> truncated = Boolean.parseBoolean(text(r).trim());
            case "NextContinuationToken" -> next = text(r);
            case "EncodingType" -> urlEncoded = text(r).trim().equalsIgnoreCase("url");
            default -> { }
          }
        }
        if (r.getEventType() == XMLStreamConstants.END_ELEMENT) depth--; // an element read whole
      }
    } catch (XMLStreamException | RuntimeException e) {
      throw new IOException("the store's ListObjectsV2 answer could not be read: " + e.getMessage(), e);
    }
    if (urlEncoded) {
      try {
        entries.replaceAll(e -> new Entry(decode(e.key()), e.millis(), e.etag(), e.size(), e.storageClass()));
        prefixes.replaceAll(ObjectListing::decode);
      } catch (IllegalArgumentException e) {
        throw new IOException("the store's ListObjectsV2 answer has a key that is not URL-encoded as it says: " + e.getMessage(), e);
      }
    }
    if (truncated && (next == null || next.isEmpty())) {
      throw new io.ferry.store.StoreFailure(io.ferry.store.StoreFailure.Kind.FATAL, "the store answered a truncated ListObjectsV2"
          + " page without NextContinuationToken, so the listing cannot go on from it", null);
    }
    return new Page(entries, prefixes, truncated, truncated ? next : null);
  }

  private static String text(XMLStreamReader r) throws XMLStreamException {
    return r.getElementText();
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
