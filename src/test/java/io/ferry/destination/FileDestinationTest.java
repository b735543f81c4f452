package io.ferry.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.plan.ByteRange;
import io.ferry.plan.RangeTask;
import io.ferry.plan.SourceObject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileDestinationTest {
  @TempDir Path root;

  private static final long MTIME = 1_543_622_400_000L; // 2018-12-01

  private static SourceObject object(String key, long size) {
    return new SourceObject(key, key, size, "e", MTIME);
  }

  private static void write(FileDestination d, SourceObject o, int part, int parts, long offset, String text) throws Exception {
    try (var sink = d.open(new RangeTask(o, part, parts, new ByteRange(offset, text.length())))) {
      sink.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)), offset);
    }
  }

  @Test
  void rangesWrittenInAnyOrderCommitToTheWholeObject() throws Exception {
    FileDestination d = new FileDestination(root, "R1");
    SourceObject o = object("dir/sub/file.txt", 10);
    write(d, o, 3, 3, 8, "89");
    write(d, o, 1, 3, 0, "0123");
    assertThat(root.resolve("dir/sub/file.txt")).doesNotExist();
    assertThat(root.resolve("dir/sub/.file.txt.ferry-R1.tmp")).hasSize(10); // preallocated to the object's size
    write(d, o, 2, 3, 4, "4567");
    write(d, o, 2, 3, 4, "4567"); // a retried range writes the same bytes again: harmless
    d.commit(o);
    assertThat(root.resolve("dir/sub/file.txt")).hasContent("0123456789");
    assertThat(Files.getLastModifiedTime(root.resolve("dir/sub/file.txt")).toMillis()).isEqualTo(MTIME);
    assertThat(tempFiles()).isEmpty();
    assertThat(d.unchanged(o)).isTrue();
    assertThat(d.unchanged(object("dir/sub/file.txt", 11))).isFalse();
    d.commit(o); // committing again (a recomputed commit) is a no-op
    assertThat(root.resolve("dir/sub/file.txt")).hasContent("0123456789");
  }

  @Test
  void aShortTempFileIsNotCommittedAndAbortLeavesNothing() throws Exception {
    FileDestination d = new FileDestination(root, "R2");
    SourceObject o = object("x.bin", 4);
    Files.writeString(root.resolve("x.bin"), "old");
    write(d, o, 1, 1, 0, "ab");
    // the temp file is preallocated, so it has the right size: simulate a foreign truncation instead
    try (var channel = java.nio.channels.FileChannel.open(d.tempPath(o), java.nio.file.StandardOpenOption.WRITE)) {
      channel.truncate(2);
    }
    assertThatThrownBy(() -> d.commit(o)).hasMessageContaining("temp file holds 2 bytes, the object has 4");
    d.abort(o);
    assertThat(tempFiles()).isEmpty();
    assertThat(root.resolve("x.bin")).hasContent("old");
  }

  @Test
  void aDirectoryAtTheFinalNameIsNotReplaced() throws Exception {
    FileDestination d = new FileDestination(root, "R3");
    Files.createDirectories(root.resolve("a/b"));
    SourceObject o = object("a", 1);
    write(d, o, 1, 1, 0, "z");
    assertThatThrownBy(() -> d.commit(o)).hasMessageContaining("a directory stands at the object's final name");
    assertThat(root.resolve("a/b")).isDirectory();
  }

  @Test
  void anEmptyObjectCommitsToAnEmptyFile() throws Exception {
    FileDestination d = new FileDestination(root, "R4");
    SourceObject o = object("empty", 0);
    d.open(new RangeTask(o, 1, 1, new ByteRange(0, 0))).close();
    d.commit(o);
    assertThat(root.resolve("empty")).isEmptyFile();
  }

  private Stream<Path> tempFiles() throws Exception {
    return Files.walk(root).filter(p -> KeyPaths.isTempName(p.getFileName().toString())).toList().stream();
  }
}
