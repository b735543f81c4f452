package io.ferry.store.file;

import io.ferry.store.ByteRange;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.RangeReader;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.TreeMap;

/** Positioned reads of files under a directory (local disk, NFS, a block volume): the source of an upload. */
final class FileRangeReader implements RangeReader {
  private final Path root;
  /** How the file is opened and checked: through symbolic links only where the job follows them. */
  private final LinkOption[] links;

  FileRangeReader(Path root, boolean follow) {
    this.root = root;
    this.links = follow ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
  }

  /**
   * The range's bytes, pinned to the version listed: the file must have the listed size, modification time and inode
   * when the range is opened and again once its last byte is read, so a file rewritten or replaced during the copy
   * fails its ranges (a rerun copies the new version) instead of mixing two versions.
   */
  @Override
  public InputStream open(StoreObject object, ByteRange range) throws IOException {
    Path file = root.resolve(object.key());
    if (object.isFolder()) return InputStream.nullInputStream();
    if (object.isSymlink()) {
      byte[] target = linkAsListed(file, object).getBytes(StandardCharsets.UTF_8);
      return new ByteArrayInputStream(target, (int) range.offset(), (int) range.length());
    }
    FileChannel channel = links.length == 0 ? FileChannel.open(file, StandardOpenOption.READ)
        : FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    try {
      checkUnchanged(file, object, links);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    return new InputStream() {
      private long position = range.offset();
      private final long end = range.offset() + range.length();

      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        if (position >= end) return -1;
        int n = channel.read(ByteBuffer.wrap(buffer, offset, (int) Math.min(length, end - position)), position);
        if (n > 0) position += n;
        if (n < 0 || position >= end) checkUnchanged(file, object, links); // its bytes read: were they all of one version?
        return n;
      }

      @Override
      public void close() throws IOException {
        channel.close();
      }
    };
  }

  /** One device and inode, on this host (where both paths resolve alike), and neither name a symbolic link. */
  @Override
  public boolean sameFile(StoreObject a, StoreObject b) throws IOException {
    if (a.isSymlink() || b.isSymlink() || a.isFolder() || b.isFolder()) return false;
    Path one = root.resolve(a.key());
    Path other = root.resolve(b.key());
    if (Files.isSymbolicLink(one) || Files.isSymbolicLink(other)) return false;
    try {
      return Files.isSameFile(one, other);
    } catch (NoSuchFileException gone) {
      return false; // one of them was removed since it was listed: it is copied (or fails) as a file of its own
    }
  }

  /** A link's target, once it is found still the link listed (its target and time), else a failure for good. */
  static String linkAsListed(Path link, StoreObject listed) throws IOException {
    BasicFileAttributes now = Files.readAttributes(link, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    String target = now.isSymbolicLink() ? Files.readSymbolicLink(link).toString() : null;
    if (target == null || !target.equals(listed.linkTarget()) || now.lastModifiedTime().toMillis() != listed.lastModifiedMillis()) {
      throw new StoreFailure(StoreFailure.Kind.FATAL, link + ": the symbolic link changed during the run: "
          + (target == null ? "it is no link now" : target.equals(listed.linkTarget()) ? "it was modified since it was listed"
          : "it points to '" + target + "', it pointed to '" + listed.linkTarget() + "'"));
    }
    return target;
  }

  /** Fails (for good: the source changed) unless the file is still the version listed. */
  static void checkUnchanged(Path file, StoreObject listed, LinkOption... links) throws IOException {
    BasicFileAttributes now = Files.readAttributes(file, BasicFileAttributes.class, links);
    String what = now.size() != listed.size() ? "it has " + now.size() + " bytes, it had " + listed.size() + " when listed"
        : now.lastModifiedTime().toMillis() != listed.lastModifiedMillis() ? "it was modified since it was listed"
        : !listed.version().isEmpty() && !FileLister.inode(now).equals(listed.version())
            ? "it was replaced by another file since it was listed" : null;
    if (what != null) throw new StoreFailure(StoreFailure.Kind.FATAL, file + ": the file changed during the run: " + what);
  }

  @Override
  public ObjectMetadata metadataOf(InputStream opened, StoreObject object, boolean tags) {
    return metadata(object, tags);
  }

  /**
   * A content type guessed from the file name, and the file's modification time, mode and owner as rclone's user
   * metadata names them ({@link ObjectMetadata#MTIME}...); files have no tags.
   */
  @Override
  public ObjectMetadata metadata(StoreObject object, boolean tags) {
    Path file = root.resolve(object.key());
    if (object.isSymlink()) { // its time (rclone's .rclonelink objects carry it); a link's mode and owner are no file's
      return new ObjectMetadata(Map.of(), Map.of(ObjectMetadata.MTIME, ObjectMetadata.mtime(object.lastModifiedMillis())), null, "",
          null);
    }
    String type = null;
    try {
      if (!object.isFolder()) type = Files.probeContentType(file);
    } catch (IOException e) {
      // no guess
    }
    Map<String, String> user = new TreeMap<>();
    user.put(ObjectMetadata.MTIME, ObjectMetadata.mtime(object.lastModifiedMillis()));
    try {
      Map<String, Object> unix = Files.readAttributes(file, "unix:mode,uid,gid", links);
      user.put(ObjectMetadata.MODE, Integer.toOctalString((Integer) unix.get("mode")));
      user.put(ObjectMetadata.UID, unix.get("uid").toString());
      user.put(ObjectMetadata.GID, unix.get("gid").toString());
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // a platform without Unix attributes, or the file is gone (its read fails on its own): the time alone
    }
    return new ObjectMetadata(type == null ? Map.of() : Map.of("Content-Type", type), user, null, "", null);
  }

  @Override
  public String verb() {
    return "read";
  }
}
