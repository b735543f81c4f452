package io.ferry.destination;

import io.ferry.plan.RangeTask;
import io.ferry.plan.SourceObject;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;

/**
 * A directory on a local disk, NFS mount or block volume. Each object is written into a hidden temp file beside its
 * final name ({@link KeyPaths#tempPath}), preallocated to the object's size, by positioned writes from any number of
 * ranges, tasks and hosts; the commit fsyncs it, sets its modification time from the source and renames it into
 * place atomically, so a final name only ever shows a complete object. Every step is idempotent: a retried range
 * writes the same bytes at the same positions, and a repeated commit of a committed object succeeds.
 */
public final class FileDestination {
  private final Path root;
  private final String runId;

  public FileDestination(Path root, String runId) {
    this.root = root;
    this.runId = runId;
  }

  public Path root() {
    return root;
  }

  public Path finalPath(SourceObject object) throws UnsafeKeyException {
    return KeyPaths.resolve(root, object.relativeKey());
  }

  public Path tempPath(SourceObject object) throws UnsafeKeyException {
    return KeyPaths.tempPath(finalPath(object), runId);
  }

  /** True when the final file exists with the source's size and modification time (the rclone/sync rule). */
  public boolean unchanged(SourceObject object) {
    try {
      Path path = finalPath(object);
      return Files.isRegularFile(path)
          && Files.size(path) == object.size()
          && Files.getLastModifiedTime(path).toMillis() == object.lastModifiedMillis();
    } catch (UnsafeKeyException | IOException e) {
      return false;
    }
  }

  /**
   * Opens the object's temp file for the range's positioned writes, creating it if needed; a split object's is
   * preallocated to the object's size (an object in one range is written whole, so its own writes size it).
   */
  public RangeSink open(RangeTask range) throws IOException, UnsafeKeyException {
    Path temp = tempPath(range.object());
    if (!Files.isDirectory(temp.getParent())) Files.createDirectories(temp.getParent());
    FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    try {
      if (!range.wholeObject() && channel.size() < range.object().size()) {
        // ftruncate to the full size: never shortens what another range already wrote, never writes data.
        try (RandomAccessFile file = new RandomAccessFile(temp.toFile(), "rw")) {
          if (file.length() < range.object().size()) file.setLength(range.object().size());
        }
      }
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    return new RangeSink(channel);
  }

  /**
   * Makes the object visible at its final name: checks the temp file's size, fsyncs it, sets its modification time,
   * renames it into place and fsyncs the directory.
   */
  public void commit(SourceObject object) throws IOException, UnsafeKeyException {
    syncDirectory(commitUnsynced(object));
  }

  /**
   * {@link #commit} but for the directory's fsync, which the caller owes (once per directory for a batch of commits,
   * {@link #syncDirectory}); returns that directory.
   */
  public Path commitUnsynced(SourceObject object) throws IOException, UnsafeKeyException {
    Path target = finalPath(object);
    Path temp = tempPath(object);
    if (!Files.exists(temp)) {
      if (Files.isRegularFile(target) && Files.size(target) == object.size()
          && Files.getLastModifiedTime(target).toMillis() == object.lastModifiedMillis()) {
        return target.getParent(); // committed already (a recomputed commit after an executor loss)
      }
      throw new NoSuchFileException(temp.toString(), null, "temp file is missing: no range of this object was written");
    }
    try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
      long size = channel.size();
      if (size != object.size()) {
        throw new IOException("temp file holds " + size + " bytes, the object has " + object.size());
      }
      channel.force(true);
    }
    Files.setLastModifiedTime(temp, FileTime.fromMillis(object.lastModifiedMillis()));
    if (Files.isDirectory(target)) {
      throw new FileAlreadyExistsException(target.toString(), null, "a directory stands at the object's final name");
    }
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the destination filesystem cannot rename atomically: " + e.getMessage(), e);
    }
    return target.getParent();
  }

  /** Removes the object's temp file, if any. Never touches the final name. */
  public void abort(SourceObject object) throws IOException {
    try {
      Files.deleteIfExists(tempPath(object));
    } catch (UnsafeKeyException e) {
      // nothing was ever written for a key that has no path
    }
  }

  /** fsync of a directory, so the renames into it survive a crash. */
  public static void syncDirectory(Path directory) {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some filesystems refuse to fsync a directory; the file itself is already durable.
    }
  }

  /** Positioned writes into one temp file. */
  public static final class RangeSink implements AutoCloseable {
    private final FileChannel channel;

    RangeSink(FileChannel channel) {
      this.channel = channel;
    }

    public void write(ByteBuffer buffer, long position) throws IOException {
      long at = position;
      while (buffer.hasRemaining()) at += channel.write(buffer, at);
    }

    /**
     * Pushes the file's dirty pages to disk now (fdatasync of the whole file: this range's writes and whatever other
     * ranges of the object wrote so far), so disk writes overlap the network reads still going on instead of piling
     * up for the commit's fsync; a deferred write error (a full disk) shows up here.
     */
    public void flush() throws IOException {
      channel.force(false);
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
