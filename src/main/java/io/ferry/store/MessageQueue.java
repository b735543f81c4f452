package io.ferry.store;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * A queue of messages read by a delta pass (an SQS queue): received and held out of others' sight while the pass
 * copies what they name, deleted once that is committed, released when it is not.
 */
public interface MessageQueue extends AutoCloseable {
  /**
   * A message as received.
   *
   * @param receipt what deletes or releases this receipt of it
   * @param sentMillis when the queue took it
   * @param receiveCount how many times it has been received, this time included
   */
  record Message(String id, String receipt, String body, long sentMillis, int receiveCount) {}

  /**
   * Up to {@code max} (at most 10) waiting messages, each held out of sight for {@code hold}; none when none arrived
   * within {@code wait}.
   */
  List<Message> receive(int max, Duration wait, Duration hold) throws IOException;

  /** Deletes the messages by their receipts: once what they name is committed. */
  void delete(List<String> receipts) throws IOException;

  /** Makes the messages visible again now: a pass that did not finish hands them to the next. */
  void release(List<String> receipts) throws IOException;

  /** How long the queue keeps a message that no one deletes; zero where it does not say. */
  Duration retention() throws IOException;

  @Override
  void close();
}
