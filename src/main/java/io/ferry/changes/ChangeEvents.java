package io.ferry.changes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.store.ETags;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * S3 event notifications in the AWS record format ({@code {"Records": [...]}}), as AWS S3, MinIO and Ceph radosgw write
 * them, read into {@link Change}s: one SQS message's body, or one line of a JSON-lines file. Each writer differs a little:
 * MinIO prefixes event names with {@code s3:}; AWS and MinIO form-encode the key ({@code +} for a space), radosgw does
 * not; radosgw writes the size as a string and, in some versions, {@code etag}.
 */
public final class ChangeEvents {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ChangeEvents() {}

  /** A change a record names: a key written or removed, with what identifies the write. */
  public record Change(String bucket, String key, Kind kind, String versionId, String etag, long size, String sequencer) {}

  /** What happened to the key: written (put, posted, copied, completed) or removed (deleted, a delete marker, expired). */
  public enum Kind { WRITTEN, REMOVED }

  /** A body that is not a record list this reader knows, named by why. */
  public static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;

    Unreadable(String why) {
      super(why);
    }
  }

  /**
   * The changes a message's body names, in its order; none for S3's test event and for events that change no object
   * (a restore, a replication or a tagging notice).
   */
  public static List<Change> read(String body) throws Unreadable {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new Unreadable("not JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) throw new Unreadable("not a JSON object");
    if (root.path("Type").asText("").equals("Notification") && root.path("Message").isTextual()) {
      return read(root.get("Message").asText()); // S3 -> SNS -> SQS: the record list inside SNS's envelope
    }
    if (root.path("Event").asText("").endsWith("TestEvent")) return List.of(); // sent once as notifications are set up
    JsonNode records = root.get("Records");
    if (records == null || !records.isArray()) throw new Unreadable("no \"Records\" array");
    List<Change> changes = new ArrayList<>();
    for (JsonNode r : records) {
      Kind kind = kind(r.path("eventName").asText(""));
      if (kind == null) continue;
      JsonNode object = r.path("s3").path("object");
      String rawKey = object.path("key").asText(null);
      String bucket = r.path("s3").path("bucket").path("name").asText("");
      if (rawKey == null || bucket.isEmpty()) throw new Unreadable("a record without s3.bucket.name or s3.object.key");
      boolean encoded = !r.path("eventSource").asText("").startsWith("ceph:");
      JsonNode etag = object.has("eTag") ? object.get("eTag") : object.path("etag");
      changes.add(new Change(bucket, encoded ? decoded(rawKey) : rawKey, kind, object.path("versionId").asText(""),
          ETags.unquote(etag.asText("")), size(object.path("size")), object.path("sequencer").asText("")));
    }
    return changes;
  }

  private static String decoded(String key) throws Unreadable {
    try {
      return URLDecoder.decode(key, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new Unreadable("a key that is not form-encoded: " + key + " (" + e.getMessage() + ")");
    }
  }

  /** A size as a number or, from radosgw, as text; -1 where the record has none (a removal). */
  private static long size(JsonNode size) throws Unreadable {
    if (size.isMissingNode() || size.isNull()) return -1;
    if (size.canConvertToLong() && size.isIntegralNumber() && size.asLong() >= 0) return size.asLong();
    try {
      long bytes = size.isTextual() ? Long.parseLong(size.asText()) : -1;
      if (bytes >= 0) return bytes;
    } catch (NumberFormatException e) {
      // named below
    }
    throw new Unreadable("a size that is not a count of bytes: " + size.asText());
  }

  /** The kind of an event name ("ObjectCreated:Put", MinIO's "s3:ObjectRemoved:Delete"), or null for any other event. */
  static Kind kind(String eventName) {
    String name = eventName.startsWith("s3:") ? eventName.substring(3) : eventName;
    if (name.startsWith("ObjectCreated:")) return Kind.WRITTEN;
    if (name.startsWith("ObjectRemoved:") || name.startsWith("LifecycleExpiration:")) return Kind.REMOVED;
    return null;
  }

  /**
   * Orders two sequencers of events on one key as S3 says to: the shorter padded with zeros on the right, then compared
   * as text; the greater is the later event. Sequencers of different keys have no order.
   */
  public static int compareSequencers(String a, String b) {
    int length = Math.max(a.length(), b.length());
    return pad(a, length).compareTo(pad(b, length));
  }

  private static String pad(String sequencer, int length) {
    return (sequencer + "0".repeat(length - sequencer.length())).toUpperCase(Locale.ROOT);
  }
}
