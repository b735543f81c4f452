package io.ferry.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LocalFilesTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "0000, ---------",
      "0644, rw-r--r--",
      "0755, rwxr-xr-x",
      "0750, rwxr-x---",
      "0421, r---w---x",
      "0777, rwxrwxrwx",
      "1777, rwxrwxrwx"}) // the sticky bit is not a permission java.nio sets
  void modeBitsBecomePosixPermissions(String octal, String expected) {
    assertThat(PosixFilePermissions.toString(LocalFiles.posix(Integer.parseInt(octal, 8)))).isEqualTo(expected);
  }

  @Test
  void localPathsGetThisFilesystemAndPermissionsAreSet() throws Exception {
    FileSystem fs = LocalFiles.of(dir.toUri(), new Configuration());
    assertThat(fs).isInstanceOf(LocalFiles.class);
    assertThat(LocalFiles.of(URI.create("/tmp"), new Configuration())).isInstanceOf(LocalFiles.class);

    org.apache.hadoop.fs.Path sub = new org.apache.hadoop.fs.Path(dir.toUri().toString(), "a/b");
    assertThat(fs.mkdirs(sub, new FsPermission((short) 0750))).isTrue();
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(sub, "f.txt");
    fs.create(file, false).close();
    fs.setPermission(file, new FsPermission((short) 0604));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b")))).isEqualTo("rwxr-x---");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b/f.txt")))).isEqualTo("rw----r--");
    try (var files = Files.list(dir.resolve("a/b"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("f.txt"); // no .crc side file
    }
  }

  @Test
  void aPathWithoutSchemeFollowsTheDefaultFilesystem() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.ferrytest.impl", org.apache.hadoop.fs.RawLocalFileSystem.class.getName()); // a non-local default, as hdfs:
    conf.set("fs.defaultFS", "ferrytest:///");
    conf.setBoolean("fs.ferrytest.impl.disable.cache", true);
    assertThat(LocalFiles.of(URI.create("reports/run"), conf)).isNotInstanceOf(LocalFiles.class);
    assertThat(LocalFiles.of(URI.create("file:///reports/run"), conf)).isInstanceOf(LocalFiles.class);
  }
}
