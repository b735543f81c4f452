package io.ferry.spark;

import io.ferry.ledger.Ledger;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Instant;

/**
 * One run of a job at a time: two runs would resume the same uploads and write the same temp files. The running
 * driver keeps a note in the job's ledger folder fresh; a note whose driver is gone (a process of this host that no
 * longer runs) or that was not renewed for {@link #STALE_MILLIS} is a crashed run's, and is taken over.
 */
final class RunLock implements AutoCloseable {
  static final String NOTE = "RUNNING";
  static final long RENEW_MILLIS = 10_000;
  static final long STALE_MILLIS = 45_000;

  private final Ledger ledger;
  private final Thread renewer;

  private RunLock(Ledger ledger, Thread renewer) {
    this.ledger = ledger;
    this.renewer = renewer;
  }

  static RunLock take(Ledger ledger, String job, String runId) throws IOException, JobFailure {
    Ledger.Note note = ledger.get(NOTE);
    if (note != null && System.currentTimeMillis() - note.modifiedMillis() < STALE_MILLIS && !deadHere(note.text())) {
      throw new JobFailure("another run of job " + job + " is running (" + note.text().trim() + ", its note renewed "
          + (System.currentTimeMillis() - note.modifiedMillis()) / 1000 + " s ago); if that run crashed, its note goes stale "
          + STALE_MILLIS / 1000 + " s after its last renewal and this run can start");
    }
    String text = "run " + runId + " on " + host() + " (process " + ProcessHandle.current().pid() + ") since " + Instant.now();
    ledger.put(NOTE, text);
    Thread renewer = new Thread(() -> {
      try {
        while (true) {
          Thread.sleep(RENEW_MILLIS);
          ledger.put(NOTE, text);
        }
      } catch (InterruptedException | IOException e) {
        // closed, or the ledger is unreachable: the run goes on, and a second run could start after the stale time
      }
    }, "ferry-run-lock");
    renewer.setDaemon(true);
    renewer.start();
    return new RunLock(ledger, renewer);
  }

  /** A note of a driver process on this host that is no longer running. */
  static boolean deadHere(String note) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(" on (\\S+) \\(process (\\d+)\\)").matcher(note);
    return m.find() && m.group(1).equals(host()) && ProcessHandle.of(Long.parseLong(m.group(2))).isEmpty();
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }

  @Override
  public void close() throws IOException {
    renewer.interrupt();
    ledger.delete(NOTE);
  }
}
