package io.ferry.store.file;

import io.ferry.store.Body;
import io.ferry.store.ByteRange;
import io.ferry.store.Capabilities;
import io.ferry.store.Checksum;
import io.ferry.store.Destination;
import io.ferry.store.Lister;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import io.ferry.store.ThreadBuffers;
import io.ferry.store.Upload;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A directory as destination. Each object is written into a hidden temp file beside its final name
 * ({@link KeyPaths#tempPath}) by positioned writes from any number of ranges, tasks and hosts (one written in parts
 * is preallocated to its size by whichever part comes first); completing it fsyncs it, sets its modification time from the source and
 * renames it into place atomically, so a final name only ever shows a complete object. Every step is idempotent: a
 * retried range writes the same bytes at the same positions, and a repeated completion of a completed object
 * succeeds. The directories renamed into are fsynced once per batch ({@link #flush}).
 */
final class FileDestination implements Destination {
  /** No limits of its own: a part is a byte range of one file. */
  static final Capabilities CAPABILITIES = new Capabilities(1, Long.MAX_VALUE, 10_000, true, true, false);
  /**
   * A range at least this long is pushed to disk as soon as it is written, so its disk writes overlap the other
   * ranges' reads instead of piling up for the completion's fsync; a smaller one is left to the completion, where a
   * task's fsyncs run in parallel.
   */
  static final long FLUSH_AT_LEAST = 8L << 20;
  private static final ThreadBuffers BUFFERS = new ThreadBuffers();
  /**
   * Buffered writes to one file serialize on its inode lock anyway (ext4, XFS, NFS); the ranges of one object take a
   * lock of this JVM's first, so that its waiting writers park instead of spinning on the kernel's lock.
   */
  private static final Lock[] FILE_LOCKS = new Lock[64];

  static {
    for (int i = 0; i < FILE_LOCKS.length; i++) FILE_LOCKS[i] = new ReentrantLock();
  }

  private final Path root;
  private final String tag;
  private final int bufferSize;
  private final Set<Path> renamedInto = ConcurrentHashMap.newKeySet();

  FileDestination(Path root, String tag, int bufferSize) {
    this.root = root;
    this.tag = tag;
    this.bufferSize = bufferSize;
  }

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public String location(StoreObject object) {
    try {
      return KeyPaths.resolve(root, object.relativeKey()).toString();
    } catch (UnsafeKeyException e) {
      return root + "/" + object.relativeKey();
    }
  }

  @Override
  public String rejection(StoreObject object) {
    try {
      KeyPaths.resolve(root, object.relativeKey());
      return null;
    } catch (UnsafeKeyException e) {
      return "unsafe key, not copied: " + e.getMessage();
    }
  }

  @Override
  public Lister existing() {
    return new FileLister(root);
  }

  /** The same size and modification time (the rule of rclone and {@code aws s3 sync}). */
  @Override
  public boolean unchanged(StoreObject source, StoreObject existing) {
    return existing.size() == source.size() && existing.lastModifiedMillis() == source.lastModifiedMillis();
  }

  /** The object's path; a key that has none is a fatal failure of its own (triage sets such keys aside first). */
  Path finalPath(StoreObject object) throws StoreFailure {
    try {
      return KeyPaths.resolve(root, object.relativeKey());
    } catch (UnsafeKeyException e) {
      throw new StoreFailure(StoreFailure.Kind.FATAL, "unsafe key: " + e.getMessage(), e);
    }
  }

  Path tempPath(StoreObject object) throws StoreFailure {
    return KeyPaths.tempPath(finalPath(object), tag);
  }

  /** Names the object's temp file; its parts create it (a file keeps no metadata, so none is read). */
  @Override
  public Upload open(StoreObject object, ObjectMetadata.Lazy metadata) throws IOException {
    return new Upload(object, tempPath(object).getFileName().toString());
  }

  @Override
  public String write(Upload upload, int partNumber, ByteRange range, long from, Body body, ObjectMetadata.Lazy metadata)
      throws IOException {
    Path temp = tempPath(upload.object());
    if (!Files.isDirectory(temp.getParent())) Files.createDirectories(temp.getParent());
    // An object written whole starts a fresh file; the parts of one share a file of its full size.
    OpenOption[] options = upload.inParts() || from > 0
        ? new OpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.WRITE}
        : new OpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING};
    try (FileChannel channel = FileChannel.open(temp, options); InputStream in = body.open()) {
      if (upload.inParts() && channel.size() < upload.object().size()) preallocate(temp, upload.object().size());
      int chunk = (int) Math.min(bufferSize, Math.max(1, range.length()));
      byte[] buffer = BUFFERS.get(chunk);
      long position = range.offset() + from;
      Lock lock = upload.inParts() ? FILE_LOCKS[Math.floorMod(temp.hashCode(), FILE_LOCKS.length)] : null;
      for (int n; (n = in.read(buffer, 0, chunk)) > 0; ) {
        ByteBuffer bytes = ByteBuffer.wrap(buffer, 0, n);
        if (lock != null) lock.lock();
        try {
          while (bytes.hasRemaining()) position += channel.write(bytes, position);
        } catch (IOException e) {
          throw localWrite(e);
        } finally {
          if (lock != null) lock.unlock();
        }
      }
      if (range.length() >= FLUSH_AT_LEAST) {
        try {
          channel.force(false); // a deferred write error (a full disk) shows up here
        } catch (IOException e) {
          throw localWrite(e);
        }
      }
    }
    return "";
  }

  /** ftruncate to the object's size: never shortens what another part already wrote, never writes data. */
  private static void preallocate(Path temp, long size) throws IOException {
    try (RandomAccessFile file = new RandomAccessFile(temp.toFile(), "rw")) {
      if (file.length() < size) file.setLength(size);
    }
  }

  /**
   * Checks the temp file's size, fsyncs it, sets its modification time, renames it into place; the directory's fsync
   * is left to {@link #flush}.
   */
  @Override
  public void complete(Upload upload, SortedMap<Integer, String> receipts) throws IOException {
    StoreObject object = upload.object();
    Path target = finalPath(object);
    Path temp = tempPath(object);
    if (!Files.exists(temp)) {
      if (Files.isRegularFile(target) && Files.size(target) == object.size()
          && Files.getLastModifiedTime(target).toMillis() == object.lastModifiedMillis()) {
        renamedInto.add(target.getParent());
        return; // completed already (a recomputed commit after an executor loss)
      }
      throw new NoSuchFileException(temp.toString(), null, "temp file is missing: no range of this object was written");
    }
    try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
      long size = channel.size();
      if (size != object.size()) throw new IOException("temp file holds " + size + " bytes, the object has " + object.size());
      channel.force(true);
    }
    Files.setLastModifiedTime(temp, FileTime.fromMillis(object.lastModifiedMillis()));
    if (Files.isDirectory(target)) throw new FileAlreadyExistsException(target.toString(), null, "a directory stands at the object's final name");
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the destination filesystem cannot rename atomically: " + e.getMessage(), e);
    }
    renamedInto.add(target.getParent());
  }

  /** Removes the object's temp file, if any. Never touches the final name. */
  @Override
  public void abort(Upload upload) throws IOException {
    if (rejection(upload.object()) != null) return; // nothing was ever written for a key that has no path
    Files.deleteIfExists(tempPath(upload.object()));
  }

  @Override
  public boolean isStray(StoreObject existing) {
    String key = existing.relativeKey();
    return KeyPaths.isTempNameOf(key.substring(key.lastIndexOf('/') + 1), tag);
  }

  @Override
  public String stagedAt(Upload upload) {
    try {
      return root.relativize(tempPath(upload.object())).toString().replace(root.getFileSystem().getSeparator(), "/");
    } catch (StoreFailure e) {
      return null; // a key without a path was never staged
    }
  }

  @Override
  public void delete(StoreObject existing) throws IOException {
    Files.deleteIfExists(finalPath(existing));
  }

  @Override
  public void removeStray(StoreObject stray) throws IOException {
    if (!isStray(stray)) throw new IllegalArgumentException(stray.relativeKey() + " is not a temp file of " + tag);
    Path path = finalPath(stray);
    if (path.startsWith(root)) Files.deleteIfExists(path);
  }

  /** All of them while the temp file is there at the object's size (a part is recorded only once written). */
  @Override
  public Set<Integer> partsStillThere(Upload upload, SortedMap<Integer, String> recorded) throws IOException {
    Path temp = tempPath(upload.object());
    if (!Files.isRegularFile(temp) || Files.size(temp) != upload.object().size()) return null;
    return recorded.keySet();
  }

  /** The checksum of the temp file's bytes, read back from the filesystem (what a completion would rename). */
  @Override
  public String readBack(Upload upload, Checksum.Algorithm algorithm) throws IOException {
    Checksum.Digest digest = Checksum.digest(algorithm);
    byte[] buffer = BUFFERS.get(bufferSize);
    try (InputStream in = Files.newInputStream(tempPath(upload.object()))) {
      for (int n; (n = in.read(buffer, 0, bufferSize)) > 0; ) digest.update(buffer, 0, n);
    }
    return digest.value();
  }

  /** fsync of every directory renamed into since the last flush, so the renames survive a crash. */
  @Override
  public void flush() {
    for (Path directory : renamedInto) {
      try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
        channel.force(true);
      } catch (IOException e) {
        // Some filesystems refuse to fsync a directory; the files themselves are already durable.
      }
      renamedInto.remove(directory);
    }
  }

  /** The destination filesystem refused a write (disk full, I/O error): not a network fault, never retried. */
  private static StoreFailure localWrite(IOException e) {
    return new StoreFailure(StoreFailure.Kind.FATAL, "write failed: " + e.getMessage(), e);
  }
}
