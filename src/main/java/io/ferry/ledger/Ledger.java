package io.ferry.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.store.StoreObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Serializable;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * copies only the parts that are missing, and {@code cleanup} removes what the job left and nothing else; and the
 * restores it requested of archived objects, so that none is paid for twice; and the versions its replays wrote. The
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
      String uploadId, long partSize, int parts, String expected, String run) implements Serializable {}

  /**
   * An object about to be opened for a write in parts, recorded before the request: a run killed before it recorded
   * the opening, or an opening retried after its answer was lost, leaves uploads at this key that no {@link Opened}
   * names, and a rerun or {@code cleanup} aborts the uploads open at the keys the ledger names.
   */
  public record Intent(String key, String relativeKey, String location, String run) implements Serializable {}

  /** A part copied into an opened object: its place, its receipt (ETag) and its digests. */
  public record Copied(String key, String uploadId, int part, long offset, long length, String receipt, String crc32c,
      String checksum) implements Serializable {}

  /**
   * A RestoreObject sent for an archived object: a rerun sends none for the same version while the restore may be under
   * way or its copy readable ({@code until}), even where the store's HEAD does not tell of a restore.
   *
   * @param requested epoch milliseconds
   * @param until epoch milliseconds after which the entry is dropped: its restored copy expired
   */
  public record Restore(String key, long size, String etag, long lastModified, String tier, int days, long requested, long until,
      String run) implements Serializable {
    /** Whether this request was for this version of the object, and may still be under way or readable at {@code now}. */
    public boolean covers(StoreObject o, long now) {
      return key.equals(o.key()) && size == o.size() && etag.equals(o.etag()) && lastModified == o.lastModifiedMillis() && now < until;
    }
  }

  /**
   * A version a replay wrote ({@code source.versions = all} into a bucket): the destination's version of the key that
   * is the copy of the source's, so a rerun knows what it wrote by the source version it came from, not by its bytes
   * (two versions of the same bytes, a write whose answer was lost). Kept for good: each is a fact of the destination.
   */
  public record Written(String relativeKey, String sourceVersion, String destinationVersion, String run)
      implements Serializable {}

  /**
   * A version a replay is about to write, recorded before its write: a rerun after a kill that lost the {@link Written}
   * record knows which source version a destination version it does not know came from.
   */
  public record Writing(String relativeKey, String sourceVersion, String run) implements Serializable {}

  /**
   * The ledger as read: opened objects by key, the parts copied into each upload, the restores requested by key, the
   * versions replays wrote (by key: the destination's version id to the source's), and those they were about to write
   * (by key: the source's version ids) and whose write was not recorded.
   */
  public record State(Map<String, Opened> opened, Map<String, Map<Integer, Copied>> copied, Map<String, Intent> intents,
      Map<String, Restore> restores, Map<String, Map<String, String>> written, Map<String, Set<String>> writing)
      implements Serializable {
    public static final State EMPTY = new State(Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of());

    public boolean isEmpty() {
      return opened.isEmpty() && intents.isEmpty();
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

  FileSystem fs() throws IOException {
    return LocalFiles.of(URI.create(directory), conf);
  }

  /**
   * A writer of one task attempt's entries, each durable once written: appended and
   * flushed to one file where the filesystem can flush (local, HDFS); on an object store, where a file is published
   * only when closed (S3A's hflush does nothing), each entry a file of its own, so a run killed mid-task leaves
   * every entry it wrote.
   */
  public Writer writer(LedgerFile file) throws IOException {
    FileSystem fs = fs();
    String scheme = fs.getUri().getScheme();
    boolean flushes = scheme == null || scheme.equals("file") || scheme.equals("hdfs");
    return new Writer(fs, directory + "/" + file.name(), flushes);
  }

  /** Writes entries as JSON lines; thread-safe (a task's streams record their parts as they finish). */
  public static final class Writer implements AutoCloseable {
    private final FileSystem fs;
    private final String base;
    private final FSDataOutputStream out;
    private int entries;

    Writer(FileSystem fs, String base, boolean flushes) throws IOException {
      this.fs = fs;
      this.base = base;
      this.out = flushes ? fs.create(new Path(base + ".jsonl"), true) : null;
    }

    public synchronized void opened(Opened o) throws IOException {
      write("opened", JSON.valueToTree(o));
    }

    public synchronized void intent(Intent i) throws IOException {
      write("intent", JSON.valueToTree(i));
    }

    public synchronized void copied(Copied c) throws IOException {
      write("copied", JSON.valueToTree(c));
    }

    public synchronized void restore(Restore r) throws IOException {
      write("restore", JSON.valueToTree(r));
    }

    public synchronized void written(Written w) throws IOException {
      write("written", JSON.valueToTree(w));
    }

    public synchronized void writing(Writing w) throws IOException {
      write("writing", JSON.valueToTree(w));
    }

    private void write(String kind, JsonNode entry) throws IOException {
      ObjectNode line = JSON.createObjectNode();
      line.set(kind, entry);
      byte[] bytes = (JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8);
      if (out != null) {
        out.write(bytes);
        out.hflush();
        return;
      }
      try (FSDataOutputStream one = fs.create(new Path(base + "." + String.format("%06d", entries++) + ".jsonl"), true)) {
        one.write(bytes);
      }
    }

    @Override
    public synchronized void close() throws IOException {
      if (out != null) out.close();
    }
  }

  /** Every entry of every file (a line cut short by a killed writer is skipped); later entries win. */
  public State read() throws IOException {
    return read((LedgerFile) null);
  }

  /** The entries every attempt of {@code task}'s task wrote, as {@link #read()}. */
  public State read(LedgerFile task) throws IOException {
    FileSystem fs = fs();
    Path root = new Path(directory);
    if (!fs.exists(root)) return State.EMPTY;
    Map<String, Opened> opened = new LinkedHashMap<>();
    Map<String, Map<Integer, Copied>> copied = new TreeMap<>();
    Map<String, Intent> intents = new LinkedHashMap<>();
    Map<String, Restore> restores = new LinkedHashMap<>();
    Map<String, Map<String, String>> written = new TreeMap<>();
    Map<String, Set<String>> writing = new TreeMap<>();
    List<FileStatus> ledgerFiles = new ArrayList<>();
    if (task == null) {
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(root, true);
      while (files.hasNext()) {
        LocatedFileStatus f = files.next();
        if (isEntries(f.getPath())) ledgerFiles.add(f);
      }
    } else {
      FileStatus[] matched = fs.globStatus(new Path(directory + "/" + task.ofEveryAttempt() + "*.jsonl")); // a prefix listing on a bucket
      if (matched != null) ledgerFiles.addAll(List.of(matched));
    }
    // in the order written: by time, then name (one writer's entry files count up)
    ledgerFiles.sort(Comparator.comparingLong(FileStatus::getModificationTime).thenComparing(f -> f.getPath().getName()));
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
            opened.put(o.relativeKey(), o); // by where it is written: versions of one key go to names of their own
          } else if (node.has("copied")) {
            Copied c = JSON.treeToValue(node.get("copied"), Copied.class);
            copied.computeIfAbsent(c.uploadId(), k -> new TreeMap<>()).put(c.part(), c);
          } else if (node.has("intent")) {
            Intent i = JSON.treeToValue(node.get("intent"), Intent.class);
            intents.put(i.relativeKey(), i);
          } else if (node.has("restore")) {
            Restore r = JSON.treeToValue(node.get("restore"), Restore.class);
            restores.put(r.key(), r);
          } else if (node.has("written")) {
            Written w = JSON.treeToValue(node.get("written"), Written.class);
            written.computeIfAbsent(w.relativeKey(), k -> new LinkedHashMap<>()).put(w.destinationVersion(), w.sourceVersion());
          } else if (node.has("writing")) {
            Writing w = JSON.treeToValue(node.get("writing"), Writing.class);
            writing.computeIfAbsent(w.relativeKey(), k -> new LinkedHashSet<>()).add(w.sourceVersion());
          }
        }
      }
    }
    // a write recorded needs its intent no more
    written.forEach((key, copies) -> {
      Set<String> open = writing.get(key);
      if (open != null) open.removeAll(copies.values());
    });
    writing.values().removeIf(Set::isEmpty);
    return new State(opened, copied, intents, restores, written, writing);
  }

  /**
   * Replaces the ledger by what is still open: {@code stillOpen} and the parts copied into them (the end of a run:
   * empty when everything was completed or aborted; cleanup), and the restores requested whose copies may not have
   * expired yet.
   */
  public void keepOnly(Collection<Opened> stillOpen, State state) throws IOException {
    FileSystem fs = fs();
    Path root = new Path(directory);
    List<Path> old = new ArrayList<>();
    if (fs.exists(root)) {
      for (FileStatus f : fs.listStatus(root)) if (isEntries(f.getPath())) old.add(f.getPath());
    }
    long now = System.currentTimeMillis();
    List<Restore> restores = state.restores().values().stream().filter(r -> now < r.until()).toList();
    if (!stillOpen.isEmpty() || !restores.isEmpty() || !state.written().isEmpty() || !state.writing().isEmpty()) {
      LedgerFile kept = LedgerFile.kept(now);
      try (Writer w = writer(kept)) {
        for (Opened o : stillOpen) {
          w.opened(o);
          for (Copied c : state.copied().getOrDefault(o.uploadId(), Map.of()).values()) w.copied(c);
        }
        for (Restore r : restores) w.restore(r);
        for (Map.Entry<String, Map<String, String>> key : state.written().entrySet()) {
          for (Map.Entry<String, String> v : key.getValue().entrySet()) w.written(new Written(key.getKey(), v.getValue(), v.getKey(), ""));
        }
        for (Map.Entry<String, Set<String>> key : state.writing().entrySet()) {
          for (String version : key.getValue()) w.writing(new Writing(key.getKey(), version, ""));
        }
      }
      old.remove(new Path(directory + "/" + kept.name() + ".jsonl"));
    }
    for (Path p : old) fs.delete(p, false);
  }

  /** A file of ledger entries, by its name ({@link LedgerFile#isEntries}): no other file in the folder is read or deleted. */
  private static boolean isEntries(Path file) {
    return LedgerFile.isEntries(file.getName());
  }
}
