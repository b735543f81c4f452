package io.ferry.config;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How a run learns which keys to look at ({@code source.changes}): by listing both sides in full, or, for a delta
 * pass, from S3 event notifications read from an SQS queue or from JSON-lines files, or from two S3 Inventory reports.
 *
 * @param queue an SQS queue URL, or ""
 * @param files JSON-lines files of event notifications (absolute paths), or none
 * @param receiveWait how long a receive waits for a message before the queue counts as drained
 * @param hold how long a received message stays out of others' sight while the pass copies what it names
 * @param maxMessages the most messages one pass takes; the rest wait for the next
 * @param older the older S3 Inventory manifest.json of an inventory diff ({@code s3://} or an absolute path), or ""
 * @param newer the newer one, or ""
 */
public record ChangesConfig(From from, String queue, List<String> files, Duration receiveWait, Duration hold, int maxMessages,
    String older, String newer) implements Serializable {
  /** Every run lists both sides. */
  public static final ChangesConfig LISTING = new ChangesConfig(From.LISTING, "", List.of(), Duration.ofSeconds(1), Duration.ofHours(1),
      100_000, "", "");

  /** Where the keys come from. */
  public enum From { LISTING, EVENTS, INVENTORY_DIFF }

  public ChangesConfig {
    Objects.requireNonNull(from, "from is null");
    Objects.requireNonNull(queue, "queue is null");
    files = List.copyOf(files);
    Objects.requireNonNull(older, "older is null");
    Objects.requireNonNull(newer, "newer is null");
  }

  public boolean events() {
    return from == From.EVENTS;
  }

  /** Whether a run is a delta pass: it looks up the keys its changes name instead of listing. */
  public boolean delta() {
    return from != From.LISTING;
  }

  /** For the console: where the changes come from. */
  public String describe() {
    if (from == From.INVENTORY_DIFF) return "the changes between the inventories " + older + " and " + newer;
    return queue.isEmpty() ? "the events in " + files : "the events of the queue " + queue;
  }
}
