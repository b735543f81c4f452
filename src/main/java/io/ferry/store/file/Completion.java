package io.ferry.store.file;

import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.HashSet;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What makes a written file an object at its final name: its completion (size checked, fsync, mode, owner and time
 * restored, renamed into place), a link's and a folder's, a hard link's; and the fsync of the folders renamed into,
 * batched per task ({@link #flush}).
 */
final class Completion {
  private static final Object[] DIRECTORY_LOCKS = new Object[64];

  static {
    for (int i = 0; i < DIRECTORY_LOCKS.length; i++) DIRECTORY_LOCKS[i] = new Object();
  }

  private final Jail jail;
  /** Directories renamed into since their last fsync, and those whose fsync is under way. */
  private final Set<Path> renamedInto = ConcurrentHashMap.newKeySet();
  private final Set<Path> syncing = ConcurrentHashMap.newKeySet();

  Completion(Jail jail) {
    this.jail = jail;
  }

  /**
   * Checks the temp file's size, fsyncs it, restores the mode and owner the source tells of, sets its modification time,
   * renames it into place; the directory's fsync is left to {@link #flush}. Returns what of the mode and owner was not
   * restored (an owner other than the process's, where it is not root).
   */
  String complete(Upload upload, SortedMap<Integer, String> receipts) throws IOException {
    StoreObject object = upload.object();
    Path target = jail.finalPath(object);
    Restored restored = Restored.fromReceipts(receipts.values());
    if (object.isFolder()) return completeFolder(object, target, restored);
    long time = restored.time(object.lastModifiedMillis());
    Path temp = jail.tempPath(upload);
    jail.folder(jail.root(), target, false);
    BasicFileAttributes staged;
    try {
      staged = Files.readAttributes(temp, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      BasicFileAttributes there = attributesOrNull(target);
      boolean done = there != null && there.lastModifiedTime().toMillis() == time && (object.isSymlink()
          ? there.isSymbolicLink() && (object.linkTarget().isEmpty() || Files.readSymbolicLink(target).toString()
          .equals(object.linkTarget())) : there.isRegularFile() && there.size() == object.size());
      if (done) {
        renamedInto.add(target.getParent());
        // completed already (a recomputed commit after an executor loss, or a completion retried past its rename)
        return object.isSymlink() ? "" : restored.exact(target, OWNER_RW);
      }
      throw new NoSuchFileException(temp.toString(), null, "temp file is missing: no range of this object was written");
    }
    if (!staged.isRegularFile()) throw new StoreFailure(StoreFailure.Kind.FATAL, temp + " is not a regular file: not committed");
    // read-only: a completion retried after the mode was restored (0444, say) opens it again
    try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      long size = channel.size();
      if (size != object.size()) throw new IOException("temp file holds " + size + " bytes, the object has " + object.size());
      channel.force(true);
    }
    if (object.isSymlink()) return completeLink(target, temp, time);
    FileTime modified = FileTime.fromMillis(time);
    // the access time too (as rclone and rsync set it), or the JDK reads the file's attributes again for it
    Files.getFileAttributeView(temp, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).setTimes(modified, modified, null);
    String notRestored = restored.restore(temp, OWNER_RW);
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the destination filesystem cannot rename atomically: " + e.getMessage(), e);
    } catch (FileSystemException e) {
      // a rename never replaces a directory with a file (EISDIR): looked at only then, to say so
      if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
        throw new FileAlreadyExistsException(target.toString(), null, "a directory stands at the object's final name");
      }
      throw e;
    }
    renamedInto.add(target.getParent());
    Object landed = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
    if (staged.fileKey() != null && !staged.fileKey().equals(landed)) {
      // another rename took the name at once (a key that differs only in case, into a folder that folds it)
      throw new StoreFailure(StoreFailure.Kind.FATAL, target + " is not the file written for " + object.relativeKey() + " after its"
          + " rename: another key's file took its name (a folder that folds case?)");
    }
    String notExact = restored.exact(target, OWNER_RW);
    return notRestored.isEmpty() ? notExact : notExact.isEmpty() ? notRestored : notRestored + ", " + notExact;
  }

  /** The bits a file keeps until its completion is done, so that a completion retried may open it (not root). */
  private static final int OWNER_RW = 0600;
  /** ... and a folder, until the files in it are written. */
  private static final int OWNER_RWX = 0700;

  /**
   * A link copied as a link: the temp file holds its target (checked like any object's bytes); a link to it is made at
   * a temp name of its own, given the source's time and renamed into place, then the temp file goes (a completion
   * retried before that makes the link again).
   */
  private String completeLink(Path target, Path temp, long time) throws IOException {
    String to = Files.readString(temp, StandardCharsets.UTF_8); // written as it is, never followed
    Path link = KeyPaths.tempPath(target, jail.tag(), KeyPaths.nonce());
    Files.createSymbolicLink(link, Path.of(to));
    try {
      Files.getFileAttributeView(link, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
          .setTimes(FileTime.fromMillis(time), null, null);
      if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
        throw new FileAlreadyExistsException(target.toString(), null, "a directory stands at the link's final name");
      }
      Files.move(link, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.deleteIfExists(link);
      throw new IOException("the destination filesystem cannot rename atomically: " + e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(link);
      throw e;
    }
    renamedInto.add(target.getParent());
    Files.deleteIfExists(temp);
    return "";
  }

  /**
   * A folder: made, with its parents, through real folders only (a file or a link at its name fails it), given its
   * mode, owner and the source's time; one there already is kept as it is, files and all.
   */
  private String completeFolder(StoreObject object, Path target, Restored restored) throws IOException {
    boolean existed = Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS);
    jail.folder(jail.root(), target.resolve("-"), true);
    if (existed) return ""; // a folder there already is left as it is: its mode, owner and special bits are the destination's
    Files.getFileAttributeView(target, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
        .setTimes(FileTime.fromMillis(restored.time(object.lastModifiedMillis())), null, null);
    boolean root = Integer.valueOf(0).equals(Files.getAttribute(target, "unix:uid", LinkOption.NOFOLLOW_LINKS));
    String notRestored = restored.restore(target, root ? 0 : OWNER_RWX); // root writes into any folder; others keep rwx
    renamedInto.add(target.getParent());
    if (!root && restored.mode() >= 0 && (restored.mode() & OWNER_RWX) != OWNER_RWX) {
      String kept = "mode " + Integer.toOctalString(restored.mode()) + " (kept as " + Integer.toOctalString(restored.mode() | OWNER_RWX)
          + ": files are written into it, and the process is not root)";
      notRestored = notRestored.isEmpty() ? kept : notRestored + ", " + kept;
    }
    return notRestored;
  }

  /**
   * A hard link: {@code first}'s file, there as listed (its size and time; a file changed or replaced since is not
   * linked to), gets {@code name} as another name: linked at a temp name beside it, renamed into place.
   */
  void hardLink(StoreObject first, StoreObject name) throws IOException {
    Path existing = jail.finalPath(first);
    Path target = jail.finalPath(name);
    jail.folder(jail.root(), existing, false);
    BasicFileAttributes a = Files.readAttributes(existing, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!a.isRegularFile() || a.size() != first.size() || a.lastModifiedTime().toMillis() != first.lastModifiedMillis()) {
      throw new StoreFailure(StoreFailure.Kind.FATAL, existing + " is not the copy of " + first.relativeKey() + " (changed since):"
          + " " + name.relativeKey() + ", its other name, was not linked to it");
    }
    jail.folder(jail.root(), target, true);
    if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
      throw new FileAlreadyExistsException(target.toString(), null, "a directory stands at the object's final name");
    }
    Path temp = KeyPaths.tempPath(target, jail.tag(), KeyPaths.nonce());
    Files.createLink(temp, existing);
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    renamedInto.add(target.getParent());
  }

  private static BasicFileAttributes attributesOrNull(Path path) throws IOException {
    try {
      return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /**
   * fsync of every directory renamed into, so the renames survive a crash. Held per directory, not for the whole
   * destination: a flush waits only for an fsync under way of a directory it needs (which may have begun before its
   * rename, so it looks again after), and one fsync covers every rename before it, whichever task's.
   */
  void flush() {
    Set<Path> due = new HashSet<>(renamedInto); // read before syncing: a directory passes into syncing before it leaves
    due.addAll(syncing);
    for (Path directory : due) {
      synchronized (DIRECTORY_LOCKS[Math.floorMod(directory.hashCode(), DIRECTORY_LOCKS.length)]) {
        syncing.add(directory);
        try {
          if (renamedInto.remove(directory)) fsyncDirectory(directory);
        } finally {
          syncing.remove(directory);
        }
      }
    }
  }

  private static void fsyncDirectory(Path directory) {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some filesystems refuse to fsync a directory; the files themselves are already durable.
    }
  }

}
