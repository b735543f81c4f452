package io.ferry.config;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How a run learns which keys to look at ({@code source.changes}): by listing both sides in full ({@link Listing}), or,
 * for a delta pass, from S3 event notifications read from an SQS queue ({@link Queue}) or from JSON-lines files
 * ({@link EventFiles}), or from two S3 Inventory reports ({@link InventoryDiff}). Chosen once, when the job is read.
 */
public sealed interface ChangesConfig extends Serializable {
  /** Every run lists both sides. */
  ChangesConfig LISTING = new Listing();

  /** As {@code source.changes} names it: "listing", "events" or "inventory-diff". */
  String name();

  /** For the console: where the changes come from. */
  String describe();

  /** Whether a run is a delta pass: it looks up the keys its changes name instead of listing. */
  default boolean delta() {
    return !(this instanceof Listing);
  }

  /** Both sides listed in full. */
  record Listing() implements ChangesConfig {
    @Override
    public String name() {
      return "listing";
    }

    @Override
    public String describe() {
      return "the listings of both sides";
    }
  }

  /**
   * Event notifications from an SQS queue.
   *
   * @param url the queue's URL
   * @param receiveWait how long a receive waits for a message before the queue counts as drained
   * @param hold how long a received message stays out of others' sight while the pass copies what it names
   * @param maxMessages the most messages one pass takes; the rest wait for the next
   */
  record Queue(String url, Duration receiveWait, Duration hold, int maxMessages) implements ChangesConfig {
    public Queue {
      Objects.requireNonNull(url, "url is null");
      Objects.requireNonNull(receiveWait, "receiveWait is null");
      Objects.requireNonNull(hold, "hold is null");
    }

    @Override
    public String name() {
      return "events";
    }

    @Override
    public String describe() {
      return "the events of the queue " + url;
    }
  }

  /** Event notifications in JSON-lines files (absolute paths), one a line: any other transport's. */
  record EventFiles(List<String> paths) implements ChangesConfig {
    public EventFiles {
      paths = List.copyOf(paths);
    }

    @Override
    public String name() {
      return "events";
    }

    @Override
    public String describe() {
      return "the events in " + paths;
    }
  }

  /** The keys two S3 Inventory reports differ in: their manifest.json files ({@code s3://} or absolute paths). */
  record InventoryDiff(String older, String newer) implements ChangesConfig {
    public InventoryDiff {
      Objects.requireNonNull(older, "older is null");
      Objects.requireNonNull(newer, "newer is null");
    }

    @Override
    public String name() {
      return "inventory-diff";
    }

    @Override
    public String describe() {
      return "the changes between the inventories " + older + " and " + newer;
    }
  }
}
