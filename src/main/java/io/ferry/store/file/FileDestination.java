package io.ferry.store.file;

import io.ferry.config.S3Limits;
import io.ferry.store.Body;
import io.ferry.store.ByteRange;
import io.ferry.store.Capabilities;
import io.ferry.store.Destination;
import io.ferry.store.HardLinkTarget;
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
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
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
final class FileDestination implements Destination, HardLinkTarget {
  /** No limits of its own: a part is a byte range of one file. */
  static final Capabilities CAPABILITIES = new Capabilities(1, Long.MAX_VALUE, S3Limits.MAX_PARTS, true, true, false);
  /**
   * A range of an object written whole at least this long is pushed to disk as soon as it is written, so its disk
   * writes overlap the other ranges' reads instead of piling up for the completion's fsync; a smaller one is left to
   * the completion, where a task's fsyncs run in parallel.
   */
  static final long FLUSH_AT_LEAST = 8L << 20;
  /**
   * Buffered writes to one file serialize on its inode lock anyway (ext4, XFS, NFS); the ranges of one object take a
   * lock of this JVM's first, so that its waiting writers park instead of spinning on the kernel's lock.
   */
  private static final Lock[] FILE_LOCKS = new Lock[64];

  static {
    for (int i = 0; i < FILE_LOCKS.length; i++) FILE_LOCKS[i] = new ReentrantLock();
  }

  private final Path root;
  private final int bufferSize;
  private static final ThreadBuffers BUFFERS = new ThreadBuffers();
  private final Jail jail;
  private final Completion completion;
  private final StagedFiles stagedFiles;
  private final FileIo io;

  /** Whether the job copies links as links: its listing lists them, to compare, verify and cut over. */
  private final boolean links;

  /** Whether folders are objects of the job's (source.empty-directories = copy): its listing lists them all. */
  private final boolean folders;

  FileDestination(Path root, String tag, int bufferSize, boolean links, boolean folders, FileIo io) {
    this.root = root;
    this.jail = new Jail(root, tag);
    this.completion = new Completion(jail);
    this.stagedFiles = new StagedFiles(jail, io.chunk(bufferSize), BUFFERS, io);
    this.io = io;
    this.bufferSize = bufferSize;
    this.links = links;
    this.folders = folders;
  }

  @Override
  public Optional<HardLinkTarget> hardLinks() {
    return Optional.of(this);
  }

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public String location(StoreObject object) {
    try {
      return KeyPaths.resolve(root, Jail.pathKey(object)).toString();
    } catch (UnsafeKeyException e) {
      return root + "/" + object.relativeKey();
    }
  }

  @Override
  public String rejection(StoreObject object) {
    try {
      KeyPaths.resolve(root, Jail.pathKey(object));
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

  /**
   * Creates the object's temp file of this opening at the object's full size (sparse), exclusively; its name is the
   * upload's id. Opening is local: a file keeps no metadata, so none is read.
   */
  @Override
  public Upload open(StoreObject object, ObjectMetadata.Lazy metadata) throws IOException {
    Path target = jail.finalPath(object);
    Path temp = KeyPaths.tempPath(target, jail.tag(), KeyPaths.nonce());
    jail.folder(root, target, true);
    try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      try {
        // its full size, sparse: a zero at the last byte (the last part writes it again), nothing before it
        if (object.size() > 0) channel.write(ByteBuffer.wrap(new byte[1]), object.size() - 1);
      } catch (IOException e) {
        Files.deleteIfExists(temp); // the file this opening created
        throw SparseWriter.localWrite(e);
      }
    }
    return new Upload(object, temp.getFileName().toString());
  }

  @Override
  public String write(Upload upload, int partNumber, ByteRange range, long from, Body body, ObjectMetadata.Lazy metadata)
      throws IOException {
    if (upload.object().isFolder()) return Restored.of(metadata.get().userMetadata()).receipt(); // made by its completion
    Path temp = jail.tempPath(upload);
    jail.folder(root, temp, !upload.inParts());
    // An object written whole starts a fresh file of its own; its retry continues that file; the parts of one write
    // into the file its opening created.
    try (FileChannel channel = !upload.inParts() && from == 0 ? SparseWriter.createFresh(temp)
        : FileChannel.open(temp, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        FileIo.Writes out = io.writes(channel, temp); InputStream in = body.open()) {
      int chunk = (int) Math.min(io.chunk(bufferSize), Math.max(1, range.length()));
      byte[] buffer = BUFFERS.get(chunk);
      long position = range.offset() + from;
      Lock lock = upload.inParts() ? FILE_LOCKS[Math.floorMod(temp.hashCode(), FILE_LOCKS.length)] : null;
      for (int n; (n = SparseWriter.fill(in, buffer, io.fill(chunk, position), channel, out, position, lock)) > 0; ) {
        SparseWriter.write(channel, out, buffer, n, position, lock);
        position += n;
      }
      try {
        // a range that ends in a hole: the file reaches its end (one written in parts was created at its full size)
        if (position > 0 && channel.size() < position) channel.write(ByteBuffer.wrap(new byte[1]), position - 1);
      } catch (IOException e) {
        throw SparseWriter.localWrite(e);
      }
      if (upload.inParts() || range.length() >= FLUSH_AT_LEAST) {
        try {
          channel.force(false); // a part is on disk before the ledger says it landed; a deferred write error (a full disk) shows here
        } catch (IOException e) {
          throw SparseWriter.localWrite(e);
        }
      }
    }
    // the first range carries the file's mode and owner to the completion (read from its GET's answer: no request)
    return range.offset() == 0 ? Restored.of(metadata.get().userMetadata()).receipt() : "";
  }

  /**
   * Checks the temp file's size, fsyncs it, restores the mode and owner the source tells of, sets its modification time,
   * renames it into place; the directory's fsync is left to {@link #flush}. Returns what of the mode and owner was not
   * restored (an owner other than the process's, where it is not root).
   */
  @Override
  public String complete(Upload upload, SortedMap<Integer, String> receipts) throws IOException {
    return completion.complete(upload, receipts);
  }

  /**
   * A hard link: {@code first}'s file, there as listed (its size and time; a file changed or replaced since is not
   * linked to), gets {@code name} as another name: linked at a temp name beside it, renamed into place.
   */
  @Override
  public void hardLink(StoreObject first, StoreObject name) throws IOException {
    completion.hardLink(first, name);
  }

  /** fsync of every directory renamed into, so the renames survive a crash. */
  @Override
  public void flush() {
    completion.flush();
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
    Path temp = jail.tempPath(upload);
    if (jail.folderExists(root, temp)) Files.deleteIfExists(temp);
  }

  /**
   * A probe file of this job created in the root under a lower-case name and looked for under the upper-case one
   * (the root's behaviour; a folder of its own that folds case is not found).
   */
  @Override
  public boolean foldsCase() throws IOException {
    return jail.foldsCase();
  }

  /** Whether the folder the two keys first differ in folds case ({@link Jail#oneFile}). */
  @Override
  public boolean oneFile(String a, String b) throws IOException {
    return jail.oneFile(a, b);
  }

  @Override
  public boolean isStray(StoreObject existing) {
    return KeyPaths.isTempNameOf(fileName(existing), jail.tag());
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
      return root.relativize(jail.tempPath(upload)).toString().replace(root.getFileSystem().getSeparator(), "/");
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
    Path target = jail.finalPath(existing);
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
    Path target = jail.finalPath(existing);
    if (!asListed(target, existing)) return false;
    Path base = Files.createDirectories(Path.of(to));
    Path aside = Jail.resolve(base, existing.relativeKey());
    jail.folder(base, aside, true);
    Files.move(target, aside);
    return true;
  }

  /** Whether the file is there, through real folders, with the listed size, modification time and inode. */
  private boolean asListed(Path target, StoreObject listed) throws IOException {
    try {
      jail.folder(root, target, false);
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
    if (!isStray(stray)) throw new IllegalArgumentException(stray.relativeKey() + " is not a temp file of " + jail.tag());
    Path path = root.resolve(stray.relativeKey());
    if (path.normalize().startsWith(root) && jail.folderExists(root, path)) Files.deleteIfExists(path);
  }

  /** All of them while this opening's temp file is there at the object's size (a part is recorded only once on disk). */
  @Override
  public Set<Integer> partsStillThere(Upload upload, SortedMap<Integer, String> recorded) throws IOException {
    return stagedFiles.partsStillThere(upload, recorded);
  }

  /** The checksum of the temp file's bytes, read back from the filesystem (what a completion would rename). */
  @Override
  public String readBack(Upload upload, Checksum.Algorithm algorithm) throws IOException {
    return stagedFiles.readBack(upload, algorithm);
  }

  @Override
  public boolean readBack(Upload upload, ByteRange range, Checksum.Digest... digests) throws IOException {
    return stagedFiles.readBack(upload, range, digests);
  }

  @Override
  public String staged(Upload upload) throws IOException {
    return stagedFiles.staged(upload);
  }
}
