package io.ferry.store.s3;

import io.ferry.store.ETags;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreFailure.Kind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
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

  /** The listings' reader factory (ListObjectVersions' too). */
  static final XMLInputFactory XML = xml();

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
      boolean sized = false;
      int depth = 0;
      while (r.hasNext()) {
        int event = r.next();
        if (event == XMLStreamConstants.END_ELEMENT) {
          depth--;
          String name = r.getLocalName();
          if (inContents && depth == 1 && name.equals("Contents")) {
            if (key == null) throw new IOException("the store's ListObjectsV2 answer has an object without a Key");
            if (!sized) throw new IOException("the store's ListObjectsV2 answer has an object without a Size: " + key);
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
        if (depth == 1 && !name.equals("ListBucketResult")) {
          String body = new String(answer, StandardCharsets.UTF_8);
          // S3 may answer 200 with an error ("a 200 OK response can contain valid or invalid XML"): never an empty page
          if (name.equals("Error")) throw S3Errors.failure(S3Answers.error(500, "", body));
          throw new IOException("the store answered ListObjectsV2 with <" + name + ">, not a listing");
        }
        if (depth == 2 && name.equals("Contents")) {
          inContents = true;
          key = null;
          millis = 0;
          etag = "";
          size = 0;
          sized = false;
          storageClass = null;
        } else if (depth == 2 && name.equals("CommonPrefixes")) {
          inPrefixes = true;
        } else if (inContents && depth == 3) {
          switch (name) { // getElementText reads to the end element: the depth goes back by itself
            case "Key" -> key = text(r);
            case "LastModified" -> millis = DateUtils.parseIso8601Date(text(r).trim()).toEpochMilli();
            case "ETag" -> etag = ETags.unquote(text(r));
            case "Size" -> {
              size = Long.parseLong(text(r).trim());
              sized = true;
            }
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
        throw new StoreFailure(Kind.FATAL, "the store's ListObjectsV2 answer has a key that"
            + " is not URL-encoded as it says: " + e.getMessage(), e);
      }
    }
    if (truncated && (next == null || next.isEmpty())) {
      throw new StoreFailure(Kind.FATAL, "the store answered a truncated ListObjectsV2"
          + " page without NextContinuationToken, so the listing cannot go on from it", null);
    }
    return new Page(entries, prefixes, truncated, truncated ? next : null);
  }

  private static String text(XMLStreamReader r) throws XMLStreamException {
    return r.getElementText();
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
