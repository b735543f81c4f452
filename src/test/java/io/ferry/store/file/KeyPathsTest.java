package io.ferry.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class KeyPathsTest {
  private static final Path ROOT = Path.of("/data/out");

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "a.txt                      | /data/out/a.txt",
      "dir/sub/file.bin           | /data/out/dir/sub/file.bin",
      "photos/été 2019/café ☕.jpg | /data/out/photos/été 2019/café ☕.jpg",
      "a..b/..c/d..               | /data/out/a..b/..c/d..",
      "with space /x              | /data/out/with space /x",
  })
  void safeKeysStayUnderTheRoot(String key, String expected) throws Exception {
    assertThat(KeyPaths.resolve(ROOT, key)).isEqualTo(Path.of(expected));
  }

  @ParameterizedTest(name = "[{0}] is rejected")
  @ValueSource(strings = {"../etc/passwd", "a/../../b", "a/./b", "..", ".", "/etc/passwd", "a//b", "dir/", "", "a\0b"})
  void unsafeKeysAreRejectedWithAReason(String key) {
    assertThatThrownBy(() -> KeyPaths.resolve(ROOT, key)).isInstanceOf(UnsafeKeyException.class)
        .hasMessageStartingWith("the key");
  }

  @Test
  void overlongSegmentsAreRejected() {
    assertThatThrownBy(() -> KeyPaths.resolve(ROOT, "d/" + "x".repeat(256)))
        .hasMessage("a path segment of the key is longer than 255 bytes");
    // 128 two-byte characters = 256 bytes
    assertThatThrownBy(() -> KeyPaths.resolve(ROOT, "é".repeat(128))).isInstanceOf(UnsafeKeyException.class);
  }

  @Test
  void tempFilesAreHiddenSiblingsNamedForTheRun() {
    assertThat(KeyPaths.tempPath(Path.of("/data/out/dir/file.bin"), "R1"))
        .isEqualTo(Path.of("/data/out/dir/.file.bin.ferry-R1.tmp"));
    Path longName = Path.of("/data/out/" + "n".repeat(250));
    Path temp = KeyPaths.tempPath(longName, "20261130T000000Z-abcd");
    assertThat(temp.getParent()).isEqualTo(longName.getParent());
    assertThat(temp.getFileName().toString()).startsWith(".ferry-").endsWith("-20261130T000000Z-abcd.tmp").hasSizeLessThan(256);
    assertThat(KeyPaths.isTempName(temp.getFileName().toString())).isTrue();
    assertThat(KeyPaths.isTempName(".file.bin.ferry-R1.tmp")).isTrue();
    assertThat(KeyPaths.isTempName("file.tmp")).isFalse();
  }
}
