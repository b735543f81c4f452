package io.ferry.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.config.DirectoryConfig;
import io.ferry.store.ByteRange;
import io.ferry.store.Destination;
import io.ferry.store.DestinationContract;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The destination behaviour suite on a directory, and what only a directory does (temp files, mtimes, names). */
class FileDestinationTest extends DestinationContract {
  private static final long MTIME = 1_543_622_400_000L;
  @TempDir Path root;

  @Override
  protected Destination destination() {
    return new FileStore(new DirectoryConfig(root.toString()).withWrites(writes()), "R1", 64 << 10).destination();
  }

  /** How the destination writes its files: through the page cache here, around it in {@link DirectFileDestinationTest}. */
  protected DirectoryConfig.Writes writes() {
    return DirectoryConfig.Writes.PAGE_CACHE;
  }

  @Override
  protected byte[] read(String relativeKey) throws Exception {
    Path p = root.resolve(relativeKey);
    return Files.isRegularFile(p) ? Files.readAllBytes(p) : null;
  }

  @Override
  protected void put(String relativeKey, byte[] bytes) throws Exception {
    Files.createDirectories(root.resolve(relativeKey).getParent());
    Files.write(root.resolve(relativeKey), bytes);
  }

  @Override
  protected int leftovers() throws Exception {
    try (Stream<Path> files = Files.walk(root)) {
      return (int) files.filter(p -> KeyPaths.isTempName(p.getFileName().toString())).count();
    }
  }

  private static StoreObject object(String key, long size) {
    return new StoreObject(key, key, size, "e", MTIME);
  }

  private static void writeWhole(Destination d, StoreObject o, String text) throws Exception {
    byte[] bytes = text.getBytes();
    d.write(Upload.whole(o), 1, new ByteRange(0, bytes.length), 0, () -> new ByteArrayInputStream(bytes), () -> ObjectMetadata.NONE);
  }

  @Test
  void theTempFileIsHiddenBesideItsFinalNameAndTheFileTakesTheSourcesModificationTime() throws Exception {
    Destination d = destination();
    StoreObject o = object("dir/sub/file.txt", 10);
    Upload upload = d.open(o, () -> ObjectMetadata.NONE);
    assertThat(upload.id()).matches("\\.file\\.txt\\.ferry-R1\\.[0-9a-f]{12}\\.tmp"); // one temp file per opening
    assertThat(root.resolve("dir/sub").resolve(upload.id())).hasSize(10); // created at the object's size
    assertThat(d.open(o, () -> ObjectMetadata.NONE).id()).isNotEqualTo(upload.id());
    d.write(upload, 2, new ByteRange(6, 4), 0, () -> new ByteArrayInputStream("6789".getBytes()), () -> ObjectMetadata.NONE);
    d.write(upload, 1, new ByteRange(0, 6), 0, () -> new ByteArrayInputStream("012345".getBytes()), () -> ObjectMetadata.NONE);
    d.complete(upload, new TreeMap<>(Map.of(1, "")));
    assertThat(root.resolve("dir/sub/file.txt")).hasContent("0123456789");
    assertThat(Files.getLastModifiedTime(root.resolve("dir/sub/file.txt")).toMillis()).isEqualTo(MTIME);
  }

  @Test
  void aShortTempFileIsNotCompletedAndAbortLeavesTheOldFile() throws Exception {
    Destination d = destination();
    StoreObject o = object("x.bin", 4);
    Files.writeString(root.resolve("x.bin"), "old");
    writeWhole(d, o, "ab");
    assertThatThrownBy(() -> d.complete(Upload.whole(o),
        new TreeMap<>())).hasMessageContaining("temp file holds 2 bytes, the object has 4");
    d.abort(Upload.whole(o));
    assertThat(leftovers()).isZero();
    assertThat(root.resolve("x.bin")).hasContent("old");
  }

  @Test
  void aDirectoryAtTheFinalNameIsNotReplaced() throws Exception {
    Destination d = destination();
    Files.createDirectories(root.resolve("a/b"));
    StoreObject o = object("a", 1);
    writeWhole(d, o, "z");
    assertThatThrownBy(() -> d.complete(Upload.whole(o),
        new TreeMap<>())).hasMessageContaining("a directory stands at the object's final name");
    assertThat(root.resolve("a/b")).isDirectory();
  }

  @Test
  void aWholeObjectWrittenAgainFromItsStartReplacesAStaleTempFile() throws Exception {
    Destination d = destination();
    StoreObject o = object("y.bin", 3);
    Path temp = root.resolve(".y.bin.ferry-R1.tmp");
    Files.writeString(temp, "stale and longer");
    writeWhole(d, o, "new");
    d.complete(Upload.whole(o), new TreeMap<>());
    assertThat(root.resolve("y.bin")).hasContent("new");
  }

  @Test
  void unsafeKeysAreRejectedWithTheReasonAndNeverWritten() throws Exception {
    Destination d = destination();
    assertThat(d.rejection(object("../escape",
        1))).isEqualTo("unsafe key, not copied: the key has a '..' segment (it could escape the destination directory)");
    assertThat(d.rejection(object("fine/name", 1))).isNull();
    assertThatThrownBy(() -> writeWhole(d, object("../escape", 1), "x")).hasMessageStartingWith("unsafe key");
    try (FileChannel ignored = FileChannel.open(root, StandardOpenOption.READ)) {
      assertThat(root.getParent().resolve("escape")).doesNotExist();
    }
  }

  /** A destination holding a link to elsewhere, and a file elsewhere that must come to no harm. */
  private Path elsewhere() throws Exception {
    Path outside = Files.createDirectories(root.resolveSibling(root.getFileName() + "-elsewhere"));
    Files.writeString(outside.resolve("x"), "not the destination's");
    Files.createSymbolicLink(root.resolve("link"), outside);
    return outside;
  }

  @Test
  void noWriteRenameOrDeleteGoesThroughASymbolicLinkInTheDestination() throws Exception {
    Path outside = elsewhere();
    Destination d = destination();
    StoreObject through = object("link/x", 3);
    assertThatThrownBy(() -> writeWhole(d, through,
        "new")).hasMessageContaining("is a symbolic link").hasMessageContaining(outside.toString());
    assertThatThrownBy(() -> d.open(object("link/sub/y", 10), () -> ObjectMetadata.NONE)).hasMessageContaining("is a symbolic link");
    assertThatThrownBy(() -> d.delete(through)).hasMessageContaining("is a symbolic link");
    assertThatThrownBy(() -> d.complete(Upload.whole(through), new TreeMap<>())).hasMessageContaining("is a symbolic link");
    d.abort(Upload.whole(through)); // nothing of it here to remove, and nothing there is touched
    assertThat(outside.resolve("x")).hasContent("not the destination's");
    try (Stream<Path> files = Files.list(outside)) {
      assertThat(files.toList()).containsExactly(outside.resolve("x"));
    }
  }

  @Test
  void aLinkPlantedAtATempFilesNameIsReplacedNeverFollowed() throws Exception {
    Path victim = Files.writeString(root.resolveSibling(root.getFileName() + "-victim"), "a user's file");
    Files.createSymbolicLink(root.resolve(".y.ferry-R1.tmp"), victim);
    Destination d = destination();
    StoreObject o = object("y", 3);
    writeWhole(d, o, "new");
    d.complete(Upload.whole(o), new TreeMap<>());
    assertThat(root.resolve("y")).hasContent("new");
    assertThat(victim).hasContent("a user's file");
  }

  @Test
  void aDanglingLinkPlantedAtATempFilesNameIsReplacedNotCreatedThrough() throws Exception {
    Path nowhere = root.resolveSibling(root.getFileName() + "-nowhere");
    Files.createSymbolicLink(root.resolve(".w.ferry-R1.tmp"), nowhere);
    Destination d = destination();
    StoreObject o = object("w", 3);
    writeWhole(d, o, "new");
    d.complete(Upload.whole(o), new TreeMap<>());
    assertThat(root.resolve("w")).hasContent("new");
    assertThat(Files.getLastModifiedTime(root.resolve("w")).toMillis()).isEqualTo(o.lastModifiedMillis());
    assertThat(nowhere).doesNotExist();
  }

  @Test
  void aLinkAtAFinalNameIsReplacedByTheObjectNotWrittenThrough() throws Exception {
    Path victim = Files.writeString(root.resolveSibling(root.getFileName() + "-target"), "a user's file");
    Files.createSymbolicLink(root.resolve("z"), victim);
    Destination d = destination();
    StoreObject o = object("z", 3);
    writeWhole(d, o, "new");
    d.complete(Upload.whole(o), new TreeMap<>());
    assertThat(Files.isSymbolicLink(root.resolve("z"))).isFalse();
    assertThat(root.resolve("z")).hasContent("new");
    assertThat(victim).hasContent("a user's file");
  }

  @Test
  void anObjectMovedAsideKeepsItsRelativePathUnderTheOtherDirectory() throws Exception {
    Path aside = root.resolveSibling(root.getFileName() + "-deleted");
    put("a/b.txt", "old".getBytes());
    Destination d = destination();
    StoreObject o = d.existing().find("a/b.txt");
    assertThat(d.moveAside(o, aside.toString())).isTrue();
    assertThat(root.resolve("a/b.txt")).doesNotExist();
    assertThat(aside.resolve("a/b.txt")).hasContent("old");
    assertThat(d.moveAside(o, aside.toString())).as("gone already: no failure, nothing moved").isFalse();
    Path elsewhere = Files.createDirectories(root.resolveSibling(root.getFileName() + "-elsewhere"));
    Files.createSymbolicLink(aside.resolve("sub"), elsewhere); // a link inside delete-to is not followed either
    put("sub/c", "x".getBytes());
    assertThatThrownBy(() -> d.moveAside(d.existing().find("sub/c"), aside.toString())).hasMessageContaining("is a symbolic link");
    assertThat(root.resolve("sub/c")).hasContent("x");
    try (Stream<Path> files = Files.list(elsewhere)) {
      assertThat(files.toList()).isEmpty();
    }
  }

  /**
   * A file is deleted only while it is the one listed: on a filesystem that folds case, "photo.jpg" listed and
   * "Photo.JPG" just copied over it are one file, with the copy's inode and time.
   */
  @Test
  void aFileChangedOrReplacedSinceItWasListedIsNotDeleted() throws Exception {
    put("photo.jpg", "old".getBytes());
    Destination d = destination();
    StoreObject listed = d.existing().find("photo.jpg");
    Path replacement = Files.writeString(root.resolve(".new"), "new");
    Files.setLastModifiedTime(replacement, Files.getLastModifiedTime(root.resolve("photo.jpg")));
    Files.move(replacement, root.resolve("photo.jpg"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING); // another inode, same size and time
    assertThat(d.delete(listed)).isFalse();
    assertThat(root.resolve("photo.jpg")).hasContent("new");
    StoreObject again = d.existing().find("photo.jpg");
    Files.setLastModifiedTime(root.resolve("photo.jpg"), FileTime.fromMillis(MTIME));
    assertThat(d.delete(again)).as("modified since listed").isFalse();
    assertThat(d.delete(d.existing().find("photo.jpg"))).isTrue();
    assertThat(root.resolve("photo.jpg")).doesNotExist();
  }

  private static ObjectMetadata owned(String mode, String uid, String gid) {
    return new ObjectMetadata(null, Map.of("mode", mode, "uid", uid, "gid", gid, "mtime", "1543622400.000000000"), null, "", null);
  }

  @Test
  void theModeAndOwnerTheSourceTellsOfAreRestoredByTheCompletionEvenReadOnlyAndRetried() throws Exception {
    Destination d = destination();
    StoreObject o = object("ro/file.txt", 10);
    Upload upload = d.open(o, () -> ObjectMetadata.NONE);
    ObjectMetadata meta = owned("100444", "4321", "4322");
    String second = d.write(upload, 2, new ByteRange(6, 4), 0, () -> new ByteArrayInputStream("6789".getBytes()), () -> meta);
    String first = d.write(upload, 1, new ByteRange(0, 6), 0, () -> new ByteArrayInputStream("012345".getBytes()), () -> meta);
    assertThat(second).as("only the first range carries them").isEmpty();
    assertThat(first).isEqualTo("unix mode=444 uid=4321 gid=4322 mtime=1543622400000");
    // a completion that restored the mode (the owner's rw kept until the rename), then failed before its rename, is retried
    Restored.fromReceipts(java.util.List.of(first)).restore(root.resolve("ro").resolve(upload.id()), 0600);
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("ro")
        .resolve(upload.id())))).isEqualTo("rw-r--r--");
    String notCarried = d.complete(upload, new TreeMap<>(Map.of(1, first, 2, second)));
    Path file = root.resolve("ro/file.txt");
    assertThat(file).hasContent("0123456789");
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("r--r--r--");
    assertThat(Files.getLastModifiedTime(file).toMillis()).isEqualTo(MTIME);
    if (root()) {
      assertThat(notCarried).isEmpty();
      assertThat(Files.getAttribute(file, "unix:uid")).isEqualTo(4321);
      assertThat(Files.getAttribute(file, "unix:gid")).isEqualTo(4322);
    } else {
      assertThat(notCarried).startsWith("owner 4321:4322 (").contains("not permitted");
    }
  }

  @Test
  void aWholeObjectWithoutModeOrOwnerKeepsTheProcesssDefaultsAndSetIdBitsAreNeverRestored() throws Exception {
    Destination d = destination();
    StoreObject plain = object("plain.txt", 3);
    String receipt = d.write(Upload.whole(plain), 1, new ByteRange(0, 3), 0, () -> new ByteArrayInputStream("abc".getBytes()),
        () -> ObjectMetadata.NONE);
    assertThat(receipt).isEmpty();
    assertThat(d.complete(Upload.whole(plain), new TreeMap<>(Map.of(1, receipt)))).isEmpty();
    assertThat(root.resolve("plain.txt")).hasContent("abc");
    StoreObject setuid = object("tool", 3);
    long uid = ((Integer) Files.getAttribute(root, "unix:uid")).longValue();
    long gid = ((Integer) Files.getAttribute(root, "unix:gid")).longValue();
    ObjectMetadata meta = owned("104755", Long.toString(uid), Long.toString(gid));
    receipt = d.write(Upload.whole(setuid), 1, new ByteRange(0, 3), 0, () -> new ByteArrayInputStream("xyz".getBytes()), () -> meta);
    assertThat(d.complete(Upload.whole(setuid), new TreeMap<>(Map.of(1, receipt)))).as("its own owner: nothing to change").isEmpty();
    assertThat(Integer.toOctalString((Integer) Files.getAttribute(root.resolve("tool"), "unix:mode"))).isEqualTo("100755");
  }

  private static boolean root() {
    return "root".equals(System.getProperty("user.name"));
  }

  @Test
  void zeroBlocksLandAsHolesAndTheBytesReadBackTheSameWholeOrInParts() throws Exception {
    byte[] bytes = new byte[(1 << 20) + 3];
    bytes[300_000] = 'a';
    bytes[bytes.length - 1] = 0; // it ends in zeros: the file still reaches its size
    Destination d = destination();
    StoreObject whole = object("disk.img", bytes.length);
    d.write(Upload.whole(whole), 1, new ByteRange(0, bytes.length), 0, () -> new ByteArrayInputStream(bytes), () -> ObjectMetadata.NONE);
    d.complete(Upload.whole(whole), new TreeMap<>(Map.of(1, "")));
    StoreObject parts = object("parts.img", bytes.length);
    Upload upload = d.open(parts, () -> ObjectMetadata.NONE);
    int half = 500_001; // not on a block's edge
    d.write(upload, 2, new ByteRange(half, bytes.length - half), 0,
        () -> new ByteArrayInputStream(bytes, half, bytes.length - half), () -> ObjectMetadata.NONE);
    d.write(upload, 1, new ByteRange(0, half), 0, () -> new ByteArrayInputStream(bytes, 0, half), () -> ObjectMetadata.NONE);
    d.complete(upload, new TreeMap<>(Map.of(1, "", 2, "")));
    for (String name : new String[] {"disk.img", "parts.img"}) {
      assertThat(Files.readAllBytes(root.resolve(name))).as(name).isEqualTo(bytes);
      assertThat(allocated(root.resolve(name))).as(name + ": bytes allocated on disk").isLessThan(64 << 10);
    }
  }

  @Test
  void sparseWritesOfRandomBlocksAtRandomPlacesReadBackAsWritten() throws Exception {
    java.util.Random random = new java.util.Random(7);
    Path file = root.resolve("random.bin");
    for (int round = 0; round < 200; round++) {
      // every fifth up to three times the most one write call takes, over a hole and over other bytes in turns
      boolean wide = round % 5 == 0;
      int n = 1 + random.nextInt(wide ? 3 * SparseWriter.WRITE_AT_MOST : 5 * SparseWriter.SPARSE_BLOCK);
      long position = random.nextInt(3 * SparseWriter.SPARSE_BLOCK);
      byte[] bytes = new byte[n];
      for (int at = 0; at < n; at += 1 + random.nextInt(3 * SparseWriter.SPARSE_BLOCK)) {
        if (random.nextBoolean()) bytes[at] = (byte) (1 + random.nextInt(255));
      }
      if (wide) { // dense after two zero blocks: over a hole, a run past the most one write call takes, from the buffer's middle
        random.nextBytes(bytes);
        java.util.Arrays.fill(bytes, 0, Math.min(n, 2 * SparseWriter.SPARSE_BLOCK), (byte) 0);
      }
      byte[] before = new byte[(int) position + n + 17];
      random.nextBytes(before);
      // what the file holds: bytes up to where the write begins (a fresh region after), or other bytes where it writes
      // (a part written again by a repair), which every zero block written must replace
      boolean overwrite = round % 2 == 1;
      byte[] held = overwrite ? before : java.util.Arrays.copyOf(before, (int) position);
      Files.write(file, held);
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        try (FileIo.Writes out = FileIo.of(writes(), root).writes(channel, file)) {
          SparseWriter.writeSparse(channel, out, bytes, n, position);
        }
        if (channel.size() < position + n) channel.write(java.nio.ByteBuffer.wrap(new byte[1]), position + n - 1);
      }
      byte[] want = java.util.Arrays.copyOf(held, Math.max(held.length, (int) position + n));
      System.arraycopy(bytes, 0, want, (int) position, n);
      assertThat(Files.readAllBytes(file)).as("round %d: %d bytes at %d over %s", round, n, position, overwrite ? "other bytes" : "a hole")
          .isEqualTo(want);
    }
  }

  /**
   * A source that fails part-way through a buffer: the bytes it gave were counted, and a retry resumes after them, so
   * they must be on disk (a buffer filled before its write would lose them, and the part would hold zeros there).
   */
  @Test
  void theBytesASourceGaveBeforeItFailedAreWrittenForTheRetryThatResumesAfterThem() throws Exception {
    byte[] bytes = new byte[10_000];
    new java.util.Random(3).nextBytes(bytes);
    Destination d = destination();
    StoreObject o = object("resumed.bin", bytes.length);
    Upload upload = d.open(o, () -> ObjectMetadata.NONE);
    int[] given = {0};
    InputStream failing = new InputStream() {
      @Override
      public int read() {
        throw new UnsupportedOperationException();
      }

      @Override
      public int read(byte[] b, int off, int len) throws java.io.IOException {
        if (given[0] >= 5_000) throw new java.io.IOException("connection reset");
        int n = Math.min(len, 1_000);
        System.arraycopy(bytes, given[0], b, off, n);
        given[0] += n;
        return n;
      }
    };
    assertThatThrownBy(() -> d.write(upload, 1, new ByteRange(0, bytes.length), 0, () -> failing, () -> ObjectMetadata.NONE))
        .hasMessageContaining("connection reset");
    d.write(upload, 1, new ByteRange(0, bytes.length), given[0], () -> new ByteArrayInputStream(bytes, given[0], bytes.length - given[0]),
        () -> ObjectMetadata.NONE);
    d.complete(upload, new TreeMap<>(Map.of(1, "")));
    assertThat(Files.readAllBytes(root.resolve("resumed.bin"))).isEqualTo(bytes);
  }

  /** Bytes the file takes on disk ({@code stat}'s blocks of 512 bytes): Java has no attribute for it. */
  private static long allocated(Path file) throws Exception {
    Process p = new ProcessBuilder("stat", "-c", "%b", file.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes()).trim();
    assertThat(p.waitFor()).as(out).isZero();
    return Long.parseLong(out) * 512;
  }

  @Test
  void aFolderIsMadeWithItsParentsModeAndTimeAndNeverThroughALinkOrOverAFile() throws Exception {
    Destination d = new FileStore(new DirectoryConfig(root.toString()).withFolders(true), "R1", 64 << 10).destination();
    StoreObject folder = new StoreObject("a/b/empty/", "a/b/empty/", 0, "", MTIME);
    assertThat(d.rejection(folder)).isNull();
    assertThat(d.location(folder)).isEqualTo(root.resolve("a/b/empty").toString());
    ObjectMetadata meta = owned("40750", String.valueOf(Files.getAttribute(root, "unix:uid")), String.valueOf(Files.getAttribute(root,
        "unix:gid")));
    String receipt = d.write(Upload.whole(folder), 1, new ByteRange(0, 0), 0, () -> InputStream.nullInputStream(), () -> meta);
    assertThat(root.resolve("a")).as("nothing before its completion").doesNotExist();
    assertThat(d.complete(Upload.whole(folder), new TreeMap<>(Map.of(1, receipt)))).isEmpty();
    Path made = root.resolve("a/b/empty");
    assertThat(made).isEmptyDirectory();
    assertThat(Files.getLastModifiedTime(made).toMillis()).isEqualTo(MTIME);
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(made))).isEqualTo("rwxr-x---");
    assertThat(d.existing().find("a/b/empty/").isFolder()).isTrue();
    assertThat(d.unchanged(folder, d.existing().find("a/b/empty/"))).isTrue();
    Files.writeString(made.resolve("later.txt"), "a file since");
    assertThat(d.complete(Upload.whole(folder), new TreeMap<>())).as("made again: kept as it is").isEmpty();
    assertThat(made.resolve("later.txt")).hasContent("a file since");
    assertThat(d.delete(d.existing().find("a/b/empty/"))).as("never deleted").isFalse();
    assertThat(made).exists();

    Files.writeString(root.resolve("plain"), "a file");
    StoreObject overFile = new StoreObject("plain/", "plain/", 0, "", MTIME);
    assertThatThrownBy(() -> d.complete(Upload.whole(overFile), new TreeMap<>())).hasMessageContaining("is a file where the key needs");
    Path outside = Files.createDirectories(root.resolveSibling(root.getFileName() + "-out"));
    Files.createSymbolicLink(root.resolve("link"), outside);
    StoreObject through = new StoreObject("link/x/", "link/x/", 0, "", MTIME);
    assertThatThrownBy(() -> d.complete(Upload.whole(through), new TreeMap<>())).hasMessageContaining("is a symbolic link");
    assertThat(outside).isEmptyDirectory();
  }
}
