package io.ferry.changes;

import io.ferry.config.BucketConfig;
import io.ferry.config.ChangesConfig;
import io.ferry.config.SourceConfig;
import io.ferry.store.MessageQueue;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A delta pass's events, read on the driver: an SQS queue's messages received until it is drained (or the pass has taken
 * its most), or every line of JSON-lines files, into the {@link ChangeSet} of the source's selection.
 */
public final class EventFeed {
  private EventFeed() {}

  /**
   * What a pass read.
   *
   * @param counted what {@code messages} counts: "messages" of a queue, "lines" of files
   * @param receipts the readable messages, deleted once what they name is committed
   * @param unreadable messages (or lines) that are no event notifications this reader knows, left in the queue
   * @param firstUnreadable why the first of those could not be read, or ""
   * @param drained whether the queue answered that it held no more (false when the pass took its most)
   * @param oldestSentMillis when the queue took the oldest message read; 0 for files or none
   */
  public record Read(ChangeSet changes, String counted, List<String> receipts, long messages, long unreadable, String firstUnreadable,
      boolean drained, long oldestSentMillis) {
    public Read {
      receipts = List.copyOf(receipts);
    }
  }

  /** The queue's messages, each received held for {@code config.hold()}, until none arrives within the wait or the most are taken. */
  public static Read queue(MessageQueue queue, SourceConfig source) throws IOException {
    ChangesConfig config = source.changes();
    List<ChangeEvents.Change> all = new ArrayList<>();
    List<String> receipts = new ArrayList<>();
    long messages = 0, unreadable = 0, oldest = 0;
    String first = "";
    boolean drained = false;
    while (messages < config.maxMessages()) {
      List<MessageQueue.Message> got = queue.receive((int) Math.min(10, config.maxMessages() - messages), config.receiveWait(),
          config.hold());
      if (got.isEmpty()) {
        drained = true;
        break;
      }
      for (MessageQueue.Message m : got) {
        messages++;
        if (m.sentMillis() > 0 && (oldest == 0 || m.sentMillis() < oldest)) oldest = m.sentMillis();
        try {
          all.addAll(ChangeEvents.read(m.body()));
          receipts.add(m.receipt());
        } catch (ChangeEvents.Unreadable e) {
          if (unreadable++ == 0) first = "message " + m.id() + ": " + e.getMessage();
        }
      }
    }
    return new Read(select(all, source), "messages", receipts, messages, unreadable, first, drained, oldest);
  }

  /** Every non-blank line of the files, each one notification. */
  public static Read files(SourceConfig source) throws IOException {
    List<ChangeEvents.Change> all = new ArrayList<>();
    long lines = 0, unreadable = 0;
    String first = "";
    for (String file : source.changes().files()) {
      try (BufferedReader in = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
        long number = 0;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          number++;
          if (line.isBlank()) continue;
          lines++;
          try {
            all.addAll(ChangeEvents.read(line));
          } catch (ChangeEvents.Unreadable e) {
            if (unreadable++ == 0) first = file + " line " + number + ": " + e.getMessage();
          }
        }
      }
    }
    return new Read(select(all, source), "lines", List.of(), lines, unreadable, first, true, 0);
  }

  private static ChangeSet select(List<ChangeEvents.Change> all, SourceConfig source) {
    BucketConfig bucket = (BucketConfig) source.store();
    return ChangeSet.of(all, bucket.bucket(), bucket.prefix(), source.selection());
  }
}
