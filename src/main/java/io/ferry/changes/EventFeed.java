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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A delta pass's events, read on the driver: an SQS queue's messages received until it is drained (or the pass has taken
 * its most), or every line of JSON-lines files, into the {@link ChangeSet} of the source's selection, each message with
 * the selected keys it names (what must be settled before it is deleted).
 */
public final class EventFeed {
  private EventFeed() {}

  /**
   * A readable message.
   *
   * @param keys the keys it names that the job selects, relative to the source's prefix (none: it is the job's to
   *     delete, naming nothing the job copies)
   * @param receiveCount how many times the queue has handed it out, this time included
   * @param sentMillis when the queue took it (0 where it does not say): it drops the message a retention after that
   */
  public record Received(String receipt, Set<String> keys, int receiveCount, long sentMillis) {
    public Received {
      keys = Set.copyOf(keys);
    }
  }

  /**
   * What a pass read.
   *
   * @param counted what {@code messages} counts: "messages" of a queue, "lines" of files
   * @param readable the readable messages of a queue (none for files)
   * @param unreadableReceipts messages that are no event notifications this reader knows: handed back, never deleted
   * @param unreadable how many messages (or lines) could not be read
   * @param firstUnreadable why the first of those could not be read, or ""
   * @param drained whether the queue answered that it held no more (false when the pass took its most)
   * @param oldestSentMillis when the queue took the oldest message read; 0 for files or none
   */
  public record Read(ChangeSet changes, String counted, long messages, List<Received> readable, List<String> unreadableReceipts,
      long unreadable, String firstUnreadable, boolean drained, long oldestSentMillis) {
    public Read {
      readable = List.copyOf(readable);
      unreadableReceipts = List.copyOf(unreadableReceipts);
    }

    /** Every receipt this pass holds. */
    public List<String> receipts() {
      List<String> all = new ArrayList<>(unreadableReceipts);
      readable.forEach(r -> all.add(r.receipt()));
      return all;
    }
  }

  /**
   * The queue's messages, each received held for {@code config.hold()}, until none arrives within the wait or the most
   * are taken. A receive that fails hands back what was received before it.
   */
  public static Read queue(MessageQueue queue, ChangesConfig.Queue config, SourceConfig source) throws IOException {
    List<ChangeEvents.Change> all = new ArrayList<>();
    List<List<ChangeEvents.Change>> named = new ArrayList<>();
    List<MessageQueue.Message> readable = new ArrayList<>();
    List<String> unreadable = new ArrayList<>();
    long messages = 0, oldest = 0;
    String first = "";
    boolean drained = false;
    try {
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
            List<ChangeEvents.Change> changes = ChangeEvents.read(m.body());
            all.addAll(changes);
            named.add(changes);
            readable.add(m);
          } catch (ChangeEvents.Unreadable e) {
            if (unreadable.isEmpty()) first = "message " + m.id() + ": " + e.getMessage();
            unreadable.add(m.receipt());
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      List<String> held = new ArrayList<>(unreadable);
      readable.forEach(m -> held.add(m.receipt()));
      try {
        queue.release(held);
      } catch (IOException | RuntimeException again) {
        e.addSuppressed(again); // they return when their hold ends
      }
      throw e;
    }
    ChangeSet set = select(all, source);
    List<Received> received = new ArrayList<>();
    for (int i = 0; i < readable.size(); i++) {
      MessageQueue.Message m = readable.get(i);
      received.add(new Received(m.receipt(), keys(named.get(i), set, source), m.receiveCount(), m.sentMillis()));
    }
    return new Read(set, "messages", messages, received, unreadable, unreadable.size(), first, drained, oldest);
  }

  /** Every non-blank line of the files, each one notification. */
  public static Read files(ChangesConfig.EventFiles files, SourceConfig source) throws IOException {
    List<ChangeEvents.Change> all = new ArrayList<>();
    long lines = 0, unreadable = 0;
    String first = "";
    for (String file : files.paths()) {
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
    return new Read(select(all, source), "lines", lines, List.of(), List.of(), unreadable, first, true, 0);
  }

  private static ChangeSet select(List<ChangeEvents.Change> all, SourceConfig source) {
    BucketConfig bucket = (BucketConfig) source.store();
    return ChangeSet.of(all, bucket.bucket(), bucket.prefix(), source.selection());
  }

  /** The selected keys among a message's changes. */
  private static Set<String> keys(List<ChangeEvents.Change> changes, ChangeSet set, SourceConfig source) {
    BucketConfig bucket = (BucketConfig) source.store();
    Set<String> keys = new LinkedHashSet<>();
    for (ChangeEvents.Change c : changes) {
      if (!c.bucket().equals(bucket.bucket()) || !c.key().startsWith(bucket.prefix())) continue;
      String relative = c.key().substring(bucket.prefix().length());
      if (set.changes().containsKey(relative)) keys.add(relative);
    }
    return keys;
  }
}
