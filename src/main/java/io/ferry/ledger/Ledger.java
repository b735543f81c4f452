package io.ferry.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * What a job keeps between its runs, beside its reports ({@code <report.path>/<job>/ledger/}): the objects opened for
 * a write in parts (multipart uploads, temp files) and every part copied into them, so that a rerun after a crash
 * copies only the parts that are missing, and {@code cleanup} removes what the job left and nothing else. The
 * executors append to files of their own (one per task attempt, JSON lines, flushed line by line) as things happen;
 * the driver reads them all at a run's start and, at its end, keeps only what is still open.
 */
public final class Ledger {
  /**
   * An object opened for a write in parts, as a rerun must find it again: the source version it was opened for (size,
   * ETag, modification time and, for a file, its inode: a changed source is not resumed), where it is written (a job
   * whose destination changed leaves it alone), the upload's id, its part size and count (a plan that cuts the object
   * otherwise is not resumed either) and the source's checksum of it. Entries of older ledgers lack the part size
   * and version, and are never resumed.
   */
  public record Opened(String key, String relativeKey, long size, String etag, long lastModified, String version, String location,
      String uploadId, long partSize, int parts, String expected, String run) implements java.io.Serializable {}

  /** A part copied into an opened object: its place, its receipt (ETag) and its digests. */
  public record Copied(String key, String uploadId, int part, long offset, long length, String receipt, String crc32c,
      String checksum) implements java.io.Serializable {}

  /** The ledger as read: opened objects by key, and the parts copied into each upload. */
  public record State(Map<String, Opened> opened, Map<String, Map<Integer, Copied>> copied) implements java.io.Serializable {
    public static final State EMPTY = new State(Map.of(), Map.of());

    public boolean isEmpty() {
      return opened.isEmpty();
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private final String directory;
  private final Configuration conf;

  /** @param directory the ledger's folder, a qualified URI ({@link #directory(String, String, Configuration)}) */
  public Ledger(String directory, Configuration conf) {
    this.directory = directory;
    this.conf = conf;
  }

  /** The ledger folder of {@code job} under {@code reportPath}, qualified (file:/..., s3a://...). */
  public static String directory(String reportPath, String job, Configuration conf) throws IOException {
    String path = (reportPath.endsWith("/") ? reportPath.substring(0, reportPath.length() - 1) : reportPath) + "/" + job + "/ledger";
    return LocalFiles.of(URI.create(path), conf).makeQualified(new Path(path)).toString();
  }

  public String directory() {
    return directory;
  }

  private FileSystem fs() throws IOException {
    return LocalFiles.of(URI.create(directory), conf);
  }

  /** A writer of one task attempt's entries ({@code name} unique to it), each flushed as it is written. */
  public Writer writer(String name) throws IOException {
    return new Writer(fs().create(new Path(directory + "/" + name + ".jsonl"), true));
  }

  /** Appends entries as JSON lines; thread-safe (a task's streams record their parts as they finish). */
  public static final class Writer implements AutoCloseable {
    private final FSDataOutputStream out;

    Writer(FSDataOutputStream out) {
      this.out = out;
    }

    public synchronized void opened(Opened o) throws IOException {
      write("opened", JSON.valueToTree(o));
    }

    public synchronized void copied(Copied c) throws IOException {
      write("copied", JSON.valueToTree(c));
    }

    private void write(String kind, JsonNode entry) throws IOException {
      ObjectNode line = JSON.createObjectNode();
      line.set(kind, entry);
      out.write((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8));
      out.hflush();
    }

    @Override
    public synchronized void close() throws IOException {
      out.close();
    }
  }

  /** Every entry of every file (a line cut short by a killed writer is skipped); later entries win. */
  public State read() throws IOException {
    return read("");
  }

  /** The entries of the files whose names start with {@code name} (the attempts of one task), as {@link #read()}. */
  public State read(String name) throws IOException {
    FileSystem fs = fs();
    Path root = new Path(directory);
    if (!fs.exists(root)) return State.EMPTY;
    Map<String, Opened> opened = new LinkedHashMap<>();
    Map<String, Map<Integer, Copied>> copied = new TreeMap<>();
    List<FileStatus> ledgerFiles = new ArrayList<>();
    if (name.isEmpty()) {
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(root, true);
      while (files.hasNext()) {
        LocatedFileStatus f = files.next();
        if (f.getPath().getName().endsWith(".jsonl")) ledgerFiles.add(f);
      }
    } else {
      FileStatus[] matched = fs.globStatus(new Path(directory + "/" + name + "*.jsonl")); // a prefix listing on a bucket
      if (matched != null) ledgerFiles.addAll(List.of(matched));
    }
    ledgerFiles.sort((a, b) -> Long.compare(a.getModificationTime(), b.getModificationTime()));
    for (FileStatus f : ledgerFiles) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(f.getPath()), StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          JsonNode node;
          try {
            node = JSON.readTree(line);
          } catch (IOException cut) {
            continue; // the last line of a writer killed mid-write
          }
          if (node.has("opened")) {
            Opened o = JSON.treeToValue(node.get("opened"), Opened.class);
            opened.put(o.key(), o);
          } else if (node.has("copied")) {
            Copied c = JSON.treeToValue(node.get("copied"), Copied.class);
            copied.computeIfAbsent(c.uploadId(), k -> new TreeMap<>()).put(c.part(), c);
          }
        }
      }
    }
    return new State(opened, copied);
  }

  /**
   * Replaces the ledger by what is still open: {@code stillOpen} and the parts copied into them (the end of a run:
   * empty when everything was completed or aborted; cleanup).
   */
  public void keepOnly(Collection<Opened> stillOpen, State state) throws IOException {
    FileSystem fs = fs();
    Path root = new Path(directory);
    List<Path> old = new ArrayList<>();
    if (fs.exists(root)) {
      for (FileStatus f : fs.listStatus(root)) if (f.getPath().getName().endsWith(".jsonl")) old.add(f.getPath());
    }
    if (!stillOpen.isEmpty()) {
      String name = "kept-" + System.currentTimeMillis();
      try (Writer w = writer(name)) {
        for (Opened o : stillOpen) {
          w.opened(o);
          for (Copied c : state.copied().getOrDefault(o.uploadId(), Map.of()).values()) w.copied(c);
        }
      }
      old.remove(new Path(directory + "/" + name + ".jsonl"));
    }
    for (Path p : old) fs.delete(p, false);
  }

  /** Writes {@code text} to a file of the ledger's folder (the run's lock). */
  public void put(String name, String text) throws IOException {
    try (OutputStream out = fs().create(new Path(directory + "/" + name), true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** A file of the ledger's folder, with its modification time; null when absent. */
  public record Note(String text, long modifiedMillis) {}

  public Note get(String name) throws IOException {
    FileSystem fs = fs();
    Path path = new Path(directory + "/" + name);
    if (!fs.exists(path)) return null;
    long modified = fs.getFileStatus(path).getModificationTime();
    try (var in = fs.open(path)) {
      return new Note(new String(in.readAllBytes(), StandardCharsets.UTF_8), modified);
    }
  }

  public void delete(String name) throws IOException {
    fs().delete(new Path(directory + "/" + name), false);
  }

  /** The opened objects of a state, by upload id. */
  public static Map<String, Opened> byUpload(State state) {
    Map<String, Opened> byUpload = new LinkedHashMap<>();
    state.opened().values().forEach(o -> byUpload.put(o.uploadId(), o));
    return byUpload;
  }
}
