package io.ferry.store.s3;

import io.ferry.store.s3.http.S3Answers;
import io.ferry.store.s3.http.S3Errors;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A listing answer (ListObjectsV2, ListObjectVersions) read as it streams by, in one pass: its entries in the answer's
 * order, each with the fields asked for; its folders; its top-level values. The SDK builds a DOM of each page and then
 * its model objects, a cost per key that a run of small objects pays for every one of them.
 */
final class ListingXml {
  private ListingXml() {}

  private static final XMLInputFactory XML = xml();

  private static XMLInputFactory xml() {
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false); // a listing has none: no entity of the answer's is resolved
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    return f;
  }

  /** An entry: its element's name (Contents, Version, DeleteMarker) and its fields, by their place in those asked for (null: absent). */
  record Entry(String kind, String[] fields) {}

  /**
   * @param root the answer's root element's name
   * @param values the top-level fields asked for, by name (IsTruncated, a next marker, EncodingType)
   */
  record Answer(String root, List<Entry> entries, List<String> prefixes, Map<String, String> values) {
    boolean urlEncoded() {
      return values.getOrDefault("EncodingType", "").trim().equalsIgnoreCase("url");
    }

    boolean truncated() {
      return Boolean.parseBoolean(values.getOrDefault("IsTruncated", "false").trim());
    }
  }

  /** What to read of an answer: its request's name (for messages), the roots it may have, its entries' names and fields. */
  record Shape(String request, Set<String> roots, Set<String> kinds, List<String> fields, Set<String> values) {}

  static Answer read(byte[] answer, Shape shape) throws IOException {
    List<Entry> entries = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    Map<String, String> values = new HashMap<>();
    String root = null;
    try {
      XMLStreamReader r = XML.createXMLStreamReader(new ByteArrayInputStream(answer));
      String[] fields = null;
      String kind = null;
      boolean inPrefixes = false;
      int depth = 0;
      while (r.hasNext()) {
        int event = r.next();
        if (event == XMLStreamConstants.END_ELEMENT) {
          depth--;
          if (depth == 1 && fields != null) entries.add(new Entry(kind, fields));
          if (depth == 1) {
            fields = null;
            inPrefixes = false;
          }
          continue;
        }
        if (event != XMLStreamConstants.START_ELEMENT) continue;
        depth++;
        String name = r.getLocalName();
        if (depth == 1) {
          root = root(shape, name, answer);
        } else if (depth == 2 && shape.kinds().contains(name)) {
          fields = new String[shape.fields().size()];
          kind = name;
        } else if (depth == 2 && name.equals("CommonPrefixes")) {
          inPrefixes = true;
        } else if (depth == 3 && fields != null && shape.fields().contains(name)) {
          fields[shape.fields().indexOf(name)] = r.getElementText(); // read to its end element: the depth goes back by itself
        } else if (depth == 3 && inPrefixes && name.equals("Prefix")) {
          prefixes.add(r.getElementText());
        } else if (depth == 2 && shape.values().contains(name)) {
          values.put(name, r.getElementText());
        }
        if (r.getEventType() == XMLStreamConstants.END_ELEMENT) depth--; // an element read whole
      }
    } catch (XMLStreamException | RuntimeException e) {
      throw new IOException("the store's " + shape.request() + " answer could not be read: " + e.getMessage(), e);
    }
    return new Answer(root, entries, prefixes, values);
  }

  /** The answer's root, which must be a listing: S3 may answer 200 with an error, which is never an empty page. */
  private static String root(Shape shape, String name, byte[] answer) throws IOException {
    if (name.equals("Error")) throw S3Errors.failure(S3Answers.error(500, "", new String(answer, StandardCharsets.UTF_8)));
    if (!shape.roots().contains(name)) {
      throw new IOException("the store answered " + shape.request() + " with <" + name + ">, not a listing");
    }
    return name;
  }
}
