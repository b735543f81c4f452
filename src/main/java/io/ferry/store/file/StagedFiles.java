package io.ferry.store.file;

import io.ferry.store.ByteRange;
import io.ferry.store.Upload;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.limits.ThreadBuffers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;

/** What an opening's temp file holds before its completion: its parts still there, its bytes read back, its state. */
final class StagedFiles {
  private final Jail jail;
  private final int bufferSize;
  /** The writes' own: a stream thread writes, then reads back, never both at once. */
  private final ThreadBuffers buffers;
  private final FileIo io;

  StagedFiles(Jail jail, int bufferSize, ThreadBuffers buffers, FileIo io) {
    this.jail = jail;
    this.bufferSize = bufferSize;
    this.buffers = buffers;
    this.io = io;
  }

  /** All of them while this opening's temp file is there at the object's size (a part is recorded only once on disk). */
  Set<Integer> partsStillThere(Upload upload, SortedMap<Integer, String> recorded) throws IOException {
    Path temp = jail.tempPath(upload);
    if (!jail.folderExists(jail.root(), temp)) return null;
    try {
      BasicFileAttributes a = Files.readAttributes(temp, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return a.isRegularFile() && a.size() == upload.object().size() ? recorded.keySet() : null;
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** The checksum of the temp file's bytes, read back from the filesystem (what a completion would rename). */
  String readBack(Upload upload, Checksum.Algorithm algorithm) throws IOException {
    Checksum.Digest digest = Checksum.digest(algorithm);
    if (!upload.object().isFolder()) readBack(upload, -1, -1, digest); // a folder has no bytes
    return digest.value();
  }

  boolean readBack(Upload upload, ByteRange range, Checksum.Digest... digests) throws IOException {
    if (upload.object().isFolder()) return range.length() == 0;
    return readBack(upload, range.offset(), range.length(), digests);
  }

  String staged(Upload upload) throws IOException {
    BasicFileAttributes a = Files.readAttributes(jail.tempPath(upload), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    return a.size() + "/" + a.lastModifiedTime().to(TimeUnit.NANOSECONDS) + "/" + a.fileKey();
  }

  /** Bytes [offset, +length) of the upload's temp file into digests (offset -1: the whole file); false if it is shorter. */
  private boolean readBack(Upload upload, long offset, long length, Checksum.Digest... digests) throws IOException {
    byte[] buffer = buffers.get(bufferSize);
    Path temp = jail.tempPath(upload);
    jail.folder(jail.root(), temp, false);
    try (FileIo.Reads reads = io.reads(temp)) {
      long position = Math.max(0, offset);
      long end = offset < 0 ? reads.size() : offset + length;
      for (int n; position < end; position += n) {
        n = reads.read(buffer, (int) Math.min(bufferSize, end - position), position);
        if (n < 0) return false;
        for (Checksum.Digest d : digests) d.update(buffer, 0, n);
      }
      return true;
    }
  }
}
