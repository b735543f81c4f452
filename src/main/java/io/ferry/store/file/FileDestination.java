package io.ferry.store.file;

import io.ferry.config.S3Limits;
import io.ferry.store.Body;
import io.ferry.store.ByteRange;
import io.ferry.store.Capabilities;
import io.ferry.store.Destination;
import io.ferry.store.Lister;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.limits.ThreadBuffers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A directory as destination, and a jail: every folder a write, rename or deletion goes through is checked, from the
 * root down, to be a real folder, never a symbolic link (a link in the destination cannot carry a write outside it),
 * and temp files are created exclusively (a planted link at a temp file's name is replaced, never followed).
 *
 * <p>Each object is written into a hidden temp file beside its final name ({@link KeyPaths#tempPath}): an object
 * written whole into one per object, which its retried attempts start afresh; one written in parts into one per
 * opening (its name holds the opening's nonce, and is the upload's id), created at its full size when it is opened,
 * then filled by positioned writes from any number of ranges, tasks and hosts. A part is on disk (fsynced) before it is
 * reported landed, so the ledger never names a part a crash of the host could lose. Completing an object fsyncs its
 * temp file, sets its modification time from the source and renames it into place atomically, so a final name only
 * ever shows a complete object. The directories renamed into are fsynced once per batch ({@link #flush}).
 */
final class FileDestination implements Destination {
  /** No limits of its own: a part is a byte range of one file. */
  static final Capabilities CAPABILITIES = new Capabilities(1, Long.MAX_VALUE, S3Limits.MAX_PARTS, true, true, false);
  /**
   * A range of an object written whole at least this long is pushed to disk as soon as it is written, so its disk
   * writes overlap the other ranges' reads instead of piling up for the completion's fsync; a smaller one is left to
   * the completion, where a task's fsyncs run in parallel.
   */
  static final long FLUSH_AT_LEAST = 8L << 20;
  private static final ThreadBuffers BUFFERS = new ThreadBuffers();
  /** The block a hole is made of: ext4's, XFS's and NFS's usual one. */
  static final int SPARSE_BLOCK = 4096;
  /**
   * The most one write system call hands the kernel: larger writes into fresh page-cache memory cost more kernel CPU
   * per byte, and smaller ones add calls.
   */
  static final int WRITE_AT_MOST = 256 << 10;
  private static final byte[] ZEROS = new byte[SPARSE_BLOCK];
  /**
   * Buffered writes to one file serialize on its inode lock anyway (ext4, XFS, NFS); the ranges of one object take a
   * lock of this JVM's first, so that its waiting writers park instead of spinning on the kernel's lock.
   */
  private static final Lock[] FILE_LOCKS = new Lock[64];
  private static final Object[] DIRECTORY_LOCKS = new Object[64];

  static {
    for (int i = 0; i < FILE_LOCKS.length; i++) FILE_LOCKS[i] = new ReentrantLock();
    for (int i = 0; i < DIRECTORY_LOCKS.length; i++) DIRECTORY_LOCKS[i] = new Object();
  }

  private final Path root;
  private final String tag;
  private final int bufferSize;
  /** Directories renamed into since their last fsync, and those whose fsync is under way. */
  private final Set<Path> renamedInto = ConcurrentHashMap.newKeySet();
  private final Set<Path> syncing = ConcurrentHashMap.newKeySet();
  /** Folders under the root already found to be real folders, by this instance (one task's). */
  private final Set<Path> checked = ConcurrentHashMap.newKeySet();

  /** Whether the job copies links as links: its listing lists them, to compare, verify and cut over. */
  private final boolean links;

  /** Whether folders are objects of the job's (source.empty-directories = copy): its listing lists them all. */
  private final boolean folders;

  FileDestination(Path root, String tag, int bufferSize) {
    this(root, tag, bufferSize, false, false);
  }

  FileDestination(Path root, String tag, int bufferSize, boolean links, boolean folders) {
    this.root = root;
    this.tag = tag;
    this.bufferSize = bufferSize;
    this.links = links;
    this.folders = folders;
  }

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public String location(StoreObject object) {
    try {
      return KeyPaths.resolve(root, pathKey(object)).toString();
    } catch (UnsafeKeyException e) {
      return root + "/" + object.relativeKey();
    }
  }

  @Override
  public String rejection(StoreObject object) {
    try {
      KeyPaths.resolve(root, pathKey(object));
      return null;
    } catch (UnsafeKeyException e) {
      return "unsafe key, not copied: " + e.getMessage();
    }
  }

  @Override
  public Lister existing() {
    if (!links && !folders) return new FileLister(root);
    return FileLister.destination(root, links, folders ? FileLister.Folders.ALL : FileLister.Folders.NONE);
  }

  /**
   * The same size and modification time (the rule of rclone and {@code aws s3 sync}); a link, the same link (a bucket's
   * {@code name.rclonelink}, whose target its listing does not tell, by its size and time).
   */
  @Override
  public boolean unchanged(StoreObject source, StoreObject existing) {
    if (source.isFolder() || existing.isFolder()) return source.isFolder() && existing.isFolder(); // its time is its files'
    return existing.size() == source.size() && existing.lastModifiedMillis() == source.lastModifiedMillis()
        && existing.isSymlink() == source.isSymlink()
        && (source.linkTarget().isEmpty() || existing.linkTarget().equals(source.linkTarget()));
  }

  /** The object's path; a key that has none is a fatal failure of its own (triage sets such keys aside first). */
  Path finalPath(StoreObject object) throws StoreFailure {
    return resolve(root, pathKey(object));
  }

  /** The path an object's key names: a folder's without its '/'. */
  private static String pathKey(StoreObject object) {
    String key = object.relativeKey();
    return object.isFolder() ? key.substring(0, key.length() - 1) : key;
  }

  private static Path resolve(Path under, String relativeKey) throws StoreFailure {
    try {
      return KeyPaths.resolve(under, relativeKey);
    } catch (UnsafeKeyException e) {
      throw new StoreFailure(StoreFailure.Kind.FATAL, "unsafe key: " + e.getMessage(), e);
    }
  }

  /** Where an upload's bytes wait: its opening's temp file (its id), or, for an object written whole, the object's. */
  Path tempPath(Upload upload) throws StoreFailure {
    Path target = finalPath(upload.object());
    return upload.inParts() ? target.resolveSibling(upload.id())
        : KeyPaths.tempPath(target, tag, KeyPaths.keyNonce(upload.object().relativeKey()));
  }

  /**
   * Creates the object's temp file of this opening at the object's full size (sparse), exclusively; its name is the
   * upload's id. Opening is local: a file keeps no metadata, so none is read.
   */
  @Override
  public Upload open(StoreObject object, ObjectMetadata.Lazy metadata) throws IOException {
    Path target = finalPath(object);
    Path temp = KeyPaths.tempPath(target, tag, KeyPaths.nonce());
    folder(root, target, true);
    try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      try {
        // its full size, sparse: a zero at the last byte (the last part writes it again), nothing before it
        if (object.size() > 0) channel.write(ByteBuffer.wrap(new byte[1]), object.size() - 1);
      } catch (IOException e) {
        Files.deleteIfExists(temp); // the file this opening created
        throw localWrite(e);
      }
    }
    return new Upload(object, temp.getFileName().toString());
  }

  @Override
  public String write(Upload upload, int partNumber, ByteRange range, long from, Body body, ObjectMetadata.Lazy metadata)
      throws IOException {
    if (upload.object().isFolder()) return Restored.of(metadata.get().userMetadata()).receipt(); // made by its completion
    Path temp = tempPath(upload);
    folder(root, temp, !upload.inParts());
    // An object written whole starts a fresh file of its own; its retry continues that file; the parts of one write
    // into the file its opening created.
    try (FileChannel channel = !upload.inParts() && from == 0 ? createFresh(temp)
        : FileChannel.open(temp, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        InputStream in = body.open()) {
      int chunk = (int) Math.min(bufferSize, Math.max(1, range.length()));
      byte[] buffer = BUFFERS.get(chunk);
      long position = range.offset() + from;
      Lock lock = upload.inParts() ? FILE_LOCKS[Math.floorMod(temp.hashCode(), FILE_LOCKS.length)] : null;
      for (int n; (n = fill(in, buffer, chunk, channel, position, lock)) > 0; ) {
        write(channel, buffer, n, position, lock);
        position += n;
      }
      try {
        // a range that ends in a hole: the file reaches its end (one written in parts was created at its full size)
        if (position > 0 && channel.size() < position) channel.write(ByteBuffer.wrap(new byte[1]), position - 1);
      } catch (IOException e) {
        throw localWrite(e);
      }
      if (upload.inParts() || range.length() >= FLUSH_AT_LEAST) {
        try {
          channel.force(false); // a part is on disk before the ledger says it landed; a deferred write error (a full disk) shows here
        } catch (IOException e) {
          throw localWrite(e);
        }
      }
    }
    // the first range carries the file's mode and owner to the completion (read from its GET's answer: no request)
    return range.offset() == 0 ? Restored.of(metadata.get().userMetadata()).receipt() : "";
  }

  /**
   * A new file at {@code temp}, created exclusively (never through a link). Only when its name is taken (an earlier
   * attempt's file, a planted link) is that removed, not followed, and the file created again: the name is free but for
   * a retry, and a lookup first would miss in a folder of many files at about the cost of the create.
   */
  private static FileChannel createFresh(Path temp) throws IOException {
    try {
      return FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (FileAlreadyExistsException taken) {
      Files.deleteIfExists(temp);
      return FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }
  }

  /**
   * Checks the temp file's size, fsyncs it, restores the mode and owner the source tells of, sets its modification time,
   * renames it into place; the directory's fsync is left to {@link #flush}. Returns what of the mode and owner was not
   * restored (an owner other than the process's, where it is not root).
   */
  @Override
  public String complete(Upload upload, SortedMap<Integer, String> receipts) throws IOException {
    StoreObject object = upload.object();
    Path target = finalPath(object);
    Restored restored = Restored.fromReceipts(receipts.values());
    if (object.isFolder()) return completeFolder(object, target, restored);
    long time = restored.time(object.lastModifiedMillis());
    Path temp = tempPath(upload);
    folder(root, target, false);
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
    Path link = KeyPaths.tempPath(target, tag, KeyPaths.nonce());
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
    folder(root, target.resolve("-"), true);
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
  @Override
  public void hardLink(StoreObject first, StoreObject name) throws IOException {
    Path existing = finalPath(first);
    Path target = finalPath(name);
    folder(root, existing, false);
    BasicFileAttributes a = Files.readAttributes(existing, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!a.isRegularFile() || a.size() != first.size() || a.lastModifiedTime().toMillis() != first.lastModifiedMillis()) {
      throw new StoreFailure(StoreFailure.Kind.FATAL, existing + " is not the copy of " + first.relativeKey() + " (changed since):"
          + " " + name.relativeKey() + ", its other name, was not linked to it");
    }
    folder(root, target, true);
    if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
      throw new FileAlreadyExistsException(target.toString(), null, "a directory stands at the object's final name");
    }
    Path temp = KeyPaths.tempPath(target, tag, KeyPaths.nonce());
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

  /** Whether a link stands at {@code path} with the listed target and time. */
  private static boolean isLinkAsListed(Path path, StoreObject listed) throws IOException {
    try {
      FileRangeReader.linkAsListed(path, listed);
      return true;
    } catch (StoreFailure | NoSuchFileException e) {
      return false;
    }
  }

  /** Removes the object's temp file, if any. Never touches the final name. */
  @Override
  public void abort(Upload upload) throws IOException {
    if (rejection(upload.object()) != null || upload.object().isFolder()) return; // nothing was ever written for it
    Path temp = tempPath(upload);
    if (folderExists(root, temp)) Files.deleteIfExists(temp);
  }

  /**
   * A probe file of this job created in the root under a lower-case name and looked for under the upper-case one
   * (the root's behaviour; a folder of its own that folds case is not found).
   */
  @Override
  public boolean foldsCase() throws IOException {
    return Files.isDirectory(root) && foldsCaseIn(root);
  }

  /**
   * The folder the two keys first differ in (or, where it is not made yet, its deepest folder there is, whose rule a new
   * folder inherits) folds case. A folder reached through a link is never written into, so never one file.
   */
  @Override
  public boolean oneFile(String a, String b) throws IOException {
    String[] x = a.split("/", -1), y = b.split("/", -1);
    if (x.length != y.length) return false;
    int i = 0;
    while (i < x.length && x[i].equals(y[i])) i++;
    if (i == x.length) return true;
    Path folder = root;
    for (int k = 0; k < i; k++) folder = folder.resolve(x[k]);
    while (!folder.equals(root) && !Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) folder = folder.getParent();
    try {
      folder(root, folder.resolve("-"), false);
    } catch (StoreFailure | NoSuchFileException | NotDirectoryException notAFolder) {
      return false;
    }
    Path known = folder;
    Boolean folds = foldingFolders.get(known);
    if (folds == null) {
      folds = foldsCaseIn(known);
      foldingFolders.put(known, folds);
    }
    return folds;
  }

  /** Folders probed for case folding, by this instance. */
  private final Map<Path, Boolean> foldingFolders = new ConcurrentHashMap<>();

  /** A probe file of this job created in {@code folder} under a lower-case name and looked for under the upper-case one. */
  private boolean foldsCaseIn(Path folder) throws IOException {
    Path probe = folder.resolve(".ferry-" + tag + "-" + KeyPaths.nonce() + ".case.marker"); // probes of other tasks apart
    Files.createFile(probe);
    try {
      String upper = probe.getFileName().toString().toUpperCase(Locale.ROOT);
      return Files.exists(folder.resolve(upper), LinkOption.NOFOLLOW_LINKS);
    } finally {
      Files.deleteIfExists(probe);
    }
  }

  @Override
  public boolean isStray(StoreObject existing) {
    return KeyPaths.isTempNameOf(fileName(existing), tag);
  }

  @Override
  public boolean isStaging(StoreObject existing) {
    return KeyPaths.isTempName(fileName(existing));
  }

  private static String fileName(StoreObject o) {
    String key = o.relativeKey();
    return key.substring(key.lastIndexOf('/') + 1);
  }

  @Override
  public String stagedAt(Upload upload) {
    try {
      return root.relativize(tempPath(upload)).toString().replace(root.getFileSystem().getSeparator(), "/");
    } catch (StoreFailure e) {
      return null; // a key without a path was never staged
    }
  }

  /**
   * Deletes the file, only while it is the one listed (its size, modification time and inode): on a filesystem that
   * folds case, "photo.jpg" listed and "Photo.JPG" just copied are one file, and the copy is not deleted. A folder
   * reached through a link is refused (a listing never finds such a file).
   */
  @Override
  public boolean delete(StoreObject existing) throws IOException {
    if (existing.isFolder()) return false; // never: its files are objects of their own
    Path target = finalPath(existing);
    if (!asListed(target, existing)) return false;
    Files.deleteIfExists(target);
    return true;
  }

  /**
   * Moves the object to the same relative path under the directory {@code to} (a rename on one filesystem, else a
   * copy, then the delete), only while it is the one listed.
   */
  @Override
  public boolean moveAside(StoreObject existing, String to) throws IOException {
    if (existing.isFolder()) return false;
    Path target = finalPath(existing);
    if (!asListed(target, existing)) return false;
    Path base = Files.createDirectories(Path.of(to));
    Path aside = resolve(base, existing.relativeKey());
    folder(base, aside, true);
    Files.move(target, aside);
    return true;
  }

  /** Whether the file is there, through real folders, with the listed size, modification time and inode. */
  private boolean asListed(Path target, StoreObject listed) throws IOException {
    try {
      folder(root, target, false);
      if (listed.isSymlink()) return isLinkAsListed(target, listed);
      BasicFileAttributes now = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return now.isRegularFile() && now.size() == listed.size() && now.lastModifiedTime().toMillis() == listed.lastModifiedMillis()
          && (listed.version().isEmpty() || FileLister.inode(now).equals(listed.version()));
    } catch (NoSuchFileException | NotDirectoryException e) {
      return false;
    }
  }

  @Override
  public void removeStray(StoreObject stray) throws IOException {
    if (!isStray(stray)) throw new IllegalArgumentException(stray.relativeKey() + " is not a temp file of " + tag);
    Path path = root.resolve(stray.relativeKey());
    if (path.normalize().startsWith(root) && folderExists(root, path)) Files.deleteIfExists(path);
  }

  /** All of them while this opening's temp file is there at the object's size (a part is recorded only once on disk). */
  @Override
  public Set<Integer> partsStillThere(Upload upload, SortedMap<Integer, String> recorded) throws IOException {
    Path temp = tempPath(upload);
    if (!folderExists(root, temp)) return null;
    try {
      BasicFileAttributes a = Files.readAttributes(temp, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return a.isRegularFile() && a.size() == upload.object().size() ? recorded.keySet() : null;
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** The checksum of the temp file's bytes, read back from the filesystem (what a completion would rename). */
  @Override
  public String readBack(Upload upload, Checksum.Algorithm algorithm) throws IOException {
    Checksum.Digest digest = Checksum.digest(algorithm);
    if (!upload.object().isFolder()) readBack(upload, -1, -1, digest); // a folder has no bytes
    return digest.value();
  }

  @Override
  public boolean readBack(Upload upload, ByteRange range, Checksum.Digest... digests) throws IOException {
    if (upload.object().isFolder()) return range.length() == 0;
    return readBack(upload, range.offset(), range.length(), digests);
  }

  @Override
  public String staged(Upload upload) throws IOException {
    BasicFileAttributes a = Files.readAttributes(tempPath(upload), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    return a.size() + "/" + a.lastModifiedTime().to(TimeUnit.NANOSECONDS) + "/" + a.fileKey();
  }

  /** Bytes [offset, +length) of the upload's temp file into digests (offset -1: the whole file); false if it is shorter. */
  private boolean readBack(Upload upload, long offset, long length, Checksum.Digest... digests) throws IOException {
    byte[] buffer = BUFFERS.get(bufferSize);
    Path temp = tempPath(upload);
    folder(root, temp, false);
    try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      long position = Math.max(0, offset);
      long end = offset < 0 ? channel.size() : offset + length;
      for (int n; position < end; position += n) {
        n = channel.read(ByteBuffer.wrap(buffer, 0, (int) Math.min(bufferSize, end - position)), position);
        if (n < 0) return false;
        for (Checksum.Digest d : digests) d.update(buffer, 0, n);
      }
      return true;
    }
  }

  /**
   * fsync of every directory renamed into, so the renames survive a crash. Held per directory, not for the whole
   * destination: a flush waits only for an fsync under way of a directory it needs (which may have begun before its
   * rename, so it looks again after), and one fsync covers every rename before it, whichever task's.
   */
  @Override
  public void flush() {
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

  /**
   * The folder {@code path} is in, under {@code base}: every folder from {@code base} down must be a real folder (a
   * symbolic link is refused, wherever it points), and is created when missing if {@code create}.
   */
  private Path folder(Path base, Path path, boolean create) throws IOException {
    Path parent = path.getParent();
    if (parent.equals(base) || checked.contains(parent)) return parent;
    Path dir = base;
    for (Path segment : base.relativize(parent)) {
      dir = dir.resolve(segment.toString());
      if (checked.contains(dir)) continue;
      BasicFileAttributes a;
      try {
        a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        if (!create) throw e;
        try {
          Files.createDirectory(dir);
        } catch (FileAlreadyExistsException raced) {
          // another stream created it first
        }
        a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      }
      if (a.isSymbolicLink()) {
        throw new StoreFailure(StoreFailure.Kind.FATAL, dir + " is a symbolic link (to " + Files.readSymbolicLink(dir)
            + "): Ferry writes nothing through links in its destination, so this object was not copied");
      }
      if (!a.isDirectory()) throw new StoreFailure(StoreFailure.Kind.FATAL, dir + " is a file where the key needs a folder");
      checked.add(dir);
    }
    return parent;
  }

  /**
   * Whether {@code path}'s folder is there, through real folders only: nothing of this job's can be staged anywhere
   * else (a folder that is a link was never written through), so there is nothing to remove otherwise.
   */
  private boolean folderExists(Path base, Path path) throws IOException {
    try {
      folder(base, path, false);
      return true;
    } catch (NoSuchFileException | NotDirectoryException e) {
      return false;
    } catch (StoreFailure notAFolder) {
      return false;
    }
  }

  /**
   * Reads up to {@code chunk} bytes (whole blocks make holes); where the source fails part-way, the bytes it gave are
   * written before the failure goes on, so a retry that resumes after the bytes counted finds them all written.
   */
  private static int fill(InputStream in, byte[] buffer, int chunk, FileChannel channel, long position, Lock lock) throws IOException {
    int n = 0;
    try {
      for (int r; n < chunk && (r = in.read(buffer, n, chunk - n)) > 0; ) n += r;
    } catch (IOException | RuntimeException failed) {
      if (n > 0) write(channel, buffer, n, position, lock);
      throw failed;
    }
    return n;
  }

  private static void write(FileChannel channel, byte[] buffer, int n, long position, Lock lock) throws StoreFailure {
    if (lock != null) lock.lock();
    try {
      writeSparse(channel, buffer, n, position);
    } catch (IOException e) {
      throw localWrite(e);
    } finally {
      if (lock != null) lock.unlock();
    }
  }

  /**
   * Writes {@code bytes[0, n)} at {@code position}, leaving each whole filesystem block of zeros unwritten: a hole,
   * which reads as zeros and takes no space, so a sparse file (a disk image, a database file) lands sparse, as
   * {@code cp --sparse=always} writes it. A zero block costs a vectorized compare, data a compare that stops at its
   * first byte. A zero block is left unwritten only where the file reads zeros already (a hole, or past its end): a
   * part written again over other bytes (a repair of a part that failed its check) writes its zeros. The channel must
   * be readable.
   */
  static void writeSparse(FileChannel channel, byte[] bytes, int n, long position) throws IOException {
    int pending = 0; // start of the bytes not yet written
    int i = 0;
    byte[] held = null;
    while (i < n) {
      int end = (int) Math.min(n, i + SPARSE_BLOCK - Math.floorMod(position + i, SPARSE_BLOCK));
      if (end - i == SPARSE_BLOCK && Arrays.mismatch(bytes, i, end, ZEROS, 0, SPARSE_BLOCK) < 0) {
        if (held == null) held = new byte[SPARSE_BLOCK];
        if (readsZeros(channel, position + i, held)) {
          write(channel, bytes, pending, i, position);
          pending = end;
        }
      }
      i = end;
    }
    write(channel, bytes, pending, n, position);
  }

  /** Whether the file's block at {@code at} reads as zeros (a hole reads so without a disk read; past the end, too). */
  private static boolean readsZeros(FileChannel channel, long at, byte[] held) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(held);
    for (int r; b.hasRemaining() && (r = channel.read(b, at + b.position())) >= 0; ) {
      if (r == 0) break;
    }
    return Arrays.mismatch(held, 0, b.position(), ZEROS, 0, b.position()) < 0;
  }

  private static void write(FileChannel channel, byte[] bytes, int from, int to, long position) throws IOException {
    for (int at = from; at < to; ) {
      ByteBuffer b = ByteBuffer.wrap(bytes, at, Math.min(WRITE_AT_MOST, to - at));
      while (b.hasRemaining()) channel.write(b, position + b.position()); // bytes[i] goes to position + i
      at = b.position();
    }
  }

  /** The destination filesystem refused a write (disk full, I/O error): not a network fault, never retried. */
  private static StoreFailure localWrite(IOException e) {
    return new StoreFailure(StoreFailure.Kind.FATAL, "write failed: " + e.getMessage(), e);
  }
}
