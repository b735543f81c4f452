package io.ferry.ledger;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One run of a job at a time: two runs would resume the same uploads and write the same temp files. A run holds a
 * note in the job's ledger folder ({@code RUNNING}), created exclusively and kept fresh while it runs; a note is a
 * crashed run's when its driver process on this host is gone, or when it was not renewed for {@link #STALE_MILLIS}
 * by the clock of the store that keeps it (never this host's clock against another's). A run that finds its note
 * replaced has lost the lock ({@link #held}), and the driver stops before anything that destroys; a run only ever
 * deletes its own note.
 */
public final class RunLock implements AutoCloseable {
  static final String NOTE = "RUNNING";
  static final long RENEW_MILLIS = 10_000;
  static final long STALE_MILLIS = 45_000;
  private static final Pattern OWNER = Pattern.compile(" on (\\S+) \\(process (\\d+)\\)");

  /** Another run holds the job's lock. */
  public static final class Taken extends IOException {
    private static final long serialVersionUID = 1L;

    Taken(String message) {
      super(message);
    }
  }

  private final FileSystem fs;
  private final Path note;
  private final String text;
  private final Thread renewer;
  private final long renewMillis;
  private volatile boolean lost;

  private RunLock(FileSystem fs, Path note, String text, long renewMillis) {
    this.fs = fs;
    this.note = note;
    this.text = text;
    this.renewMillis = renewMillis;
    this.renewer = new Thread(this::renew, "ferry-run-lock");
    renewer.setDaemon(true);
  }

  /** Takes the lock of the job whose ledger folder is {@code directory} (a qualified URI), or fails with {@link Taken}. */
  public static RunLock take(String directory, Configuration conf, String job, String runId) throws IOException {
    return take(directory, conf, job, runId, RENEW_MILLIS);
  }

  static RunLock take(String directory, Configuration conf, String job, String runId, long renewMillis) throws IOException {
    FileSystem fs = LocalFiles.of(URI.create(directory), conf);
    Path note = new Path(directory + "/" + NOTE);
    String text = "run " + runId + " on " + host() + " (process " + ProcessHandle.current().pid() + ") since " + Instant.now()
        + " #" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    RunLock lock = new RunLock(fs, note, text, renewMillis);
    if (!lock.create()) {
      String other = lock.read();
      long age = lock.age();
      if (other != null && age < STALE_MILLIS && !deadHere(other)) {
        throw new Taken("another run of job " + job + " is running (" + other.replaceAll(" #\\w+$", "").trim() + ", its note renewed "
            + age / 1000 + " s ago); if that run crashed, its note goes stale " + STALE_MILLIS / 1000
            + " s after its last renewal and this run can start");
      }
      // a crashed run's note: replaced, if no other run replaced it first
      if (other != null && !other.equals(lock.read())) throw new Taken("another run of job " + job + " took its lock just now");
      fs.delete(note, false);
      if (!lock.create()) throw new Taken("another run of job " + job + " took its lock just now");
    }
    if (!text.equals(lock.read())) throw new Taken("another run of job " + job
        + " took its lock just now"); // a store without exclusive create
    lock.renewer.start();
    return lock;
  }

  /** False once another run replaced this run's note (it took the run for a crashed one): nothing destructive may follow. */
  public boolean held() {
    return !lost;
  }

  /** Creates the note, only if there is none; false if there is. */
  private boolean create() throws IOException {
    if (note.toUri().getScheme() == null || note.toUri().getScheme().equals("file")) {
      java.nio.file.Path file = java.nio.file.Path.of(note.toUri().getPath());
      Files.createDirectories(file.getParent());
      try {
        Files.write(file, text.getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE); // O_EXCL: one creator wins
        return true;
      } catch (FileAlreadyExistsException e) {
        return false;
      }
    }
    try (OutputStream out = fs.create(note, false)) { // HDFS: exclusive; S3A: checked before, then read back by the caller
      out.write(text.getBytes(StandardCharsets.UTF_8));
      return true;
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
      return false;
    }
  }

  private String read() throws IOException {
    try (InputStream in = fs.open(note)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  /** How long ago the note was last written, by the store's clock: a file written now, then both times compared. */
  private long age() throws IOException {
    Path probe = new Path(note.getParent(), NOTE + ".clock-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    try {
      try (OutputStream out = fs.create(probe, true)) {
        out.write(0);
      }
      return fs.getFileStatus(probe).getModificationTime() - fs.getFileStatus(note).getModificationTime();
    } catch (FileNotFoundException e) {
      return Long.MAX_VALUE; // the note went meanwhile
    } finally {
      fs.delete(probe, false);
    }
  }

  private void renew() {
    while (!lost) {
      try {
        Thread.sleep(renewMillis);
      } catch (InterruptedException e) {
        return; // closed
      }
      try {
        if (!text.equals(read())) {
          lost = true; // another run took the note: never written over
          return;
        }
        try (OutputStream out = fs.create(note, true)) {
          out.write(text.getBytes(StandardCharsets.UTF_8));
        }
      } catch (IOException e) {
        // the store is unreachable for now: the next renewal tries again
      }
    }
  }

  /** A note of a driver process on this host that is no longer running. */
  static boolean deadHere(String note) {
    Matcher m = OWNER.matcher(note);
    return m.find() && m.group(1).equals(host()) && ProcessHandle.of(Long.parseLong(m.group(2))).isEmpty();
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** Ends the renewals and deletes the note, only if it is still this run's. */
  @Override
  public void close() throws IOException {
    renewer.interrupt();
    try {
      renewer.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (text.equals(read())) fs.delete(note, false);
  }
}
