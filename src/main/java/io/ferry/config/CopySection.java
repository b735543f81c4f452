package io.ferry.config;

import java.time.Duration;

/** {@code ferry.copy}: how executors copy ranges and retry. */
final class CopySection {
  private CopySection() {}

  /** The copy settings, or null when one of its keys has a problem. */
  static CopyConfig read(Hocon h) {
    int before = h.problems().size();
    String given = h.string("copy.streams-per-task");
    boolean auto = given.equals("auto");
    boolean whole = given.matches("-?\\d{1,9}");
    if (!auto && !whole) h.problem("copy.streams-per-task", given, "must be auto, or a whole number between 1 and 256");
    int streams = auto ? CopyConfig.AUTO_START : whole ? Integer.parseInt(given) : 1;
    int most = h.integer("copy.max-streams-per-task");
    int retries = h.integer("copy.retries");
    Duration backoff = h.duration("copy.backoff");
    Duration maxBackoff = h.duration("copy.max-backoff");
    Duration stall = h.duration("copy.stall-timeout");
    boolean skip = h.bool("copy.skip-unchanged");
    long buffer = h.bytes("copy.buffer-size");
    if (streams < 1 || streams > 256) h.problem("copy.streams-per-task", streams, "must be auto, or between 1 and 256");
    if (auto && (most < CopyConfig.AUTO_START || most > 256)) {
      h.problem("copy.max-streams-per-task", most, "must be between " + CopyConfig.AUTO_START + " and 256 (auto starts at "
          + CopyConfig.AUTO_START + ")");
    }
    if (retries < 0 || retries > 100) h.problem("copy.retries", retries, "must be between 0 and 100");
    if (stall.compareTo(Duration.ofSeconds(1)) < 0) h.problem("copy.stall-timeout", stall, "must be at least 1s");
    if (buffer < 4096 || buffer > (64L << 20)) h.problem("copy.buffer-size", buffer, "must be between 4KiB and 64MiB");
    return h.problems().size() == before ? new CopyConfig(streams, auto, auto ? most : streams, retries, backoff, maxBackoff,
        stall, skip, (int) buffer) : null;
  }
}
