package io.ferry.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
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
  void overlongSegmentsAreRejected() throws UnsafeKeyException {
    assertThatThrownBy(() -> KeyPaths.resolve(ROOT, "d/" + "x".repeat(256)))
        .hasMessage("a path segment of the key is longer than 255 bytes");
    // 128 two-byte characters = 256 bytes
    assertThatThrownBy(() -> KeyPaths.resolve(ROOT, "é".repeat(128))).isInstanceOf(UnsafeKeyException.class);
    // around the 85 chars below which a segment is not encoded to be measured: 3 bytes a char, 4 a surrogate pair
    assertThat(KeyPaths.resolve(ROOT, "€".repeat(85))).isEqualTo(ROOT.resolve("€".repeat(85)));
    assertThatThrownBy(() -> KeyPaths.resolve(ROOT, "€".repeat(86))).isInstanceOf(UnsafeKeyException.class);
    assertThat(KeyPaths.resolve(ROOT, "\uD83D\uDE00".repeat(63))).isEqualTo(ROOT.resolve("\uD83D\uDE00".repeat(63)));
    assertThatThrownBy(() -> KeyPaths.resolve(ROOT, "\uD83D\uDE00".repeat(64))).isInstanceOf(UnsafeKeyException.class);
  }

  @Test
  void tempFilesAreHiddenSiblingsNamedForTheJobAndTheOpening() {
    assertThat(KeyPaths.tempPath(Path.of("/data/out/dir/file.bin"), "job", "")).isEqualTo(Path.of("/data/out/dir/.file.bin.ferry-job.tmp"));
    assertThat(KeyPaths.tempPath(Path.of("/data/out/dir/file.bin"), "job", "0123456789ab"))
        .isEqualTo(Path.of("/data/out/dir/.file.bin.ferry-job.0123456789ab.tmp"));
    Path longName = Path.of("/data/out/" + "n".repeat(250));
    for (String nonce : List.of("", KeyPaths.nonce())) {
      Path temp = KeyPaths.tempPath(longName, "a-job.v2", nonce);
      String name = temp.getFileName().toString();
      assertThat(temp.getParent()).isEqualTo(longName.getParent());
      assertThat(name).startsWith(".ferry-").endsWith(".tmp").contains("-a-job.v2").hasSizeLessThan(256);
      assertThat(KeyPaths.isTempName(name)).isTrue();
      assertThat(KeyPaths.isTempNameOf(name, "a-job.v2")).isTrue();
      assertThat(KeyPaths.isTempNameOf(name, "job.v2")).isFalse();
    }
    assertThat(KeyPaths.nonce()).matches("[0-9a-f]{12}").isNotEqualTo(KeyPaths.nonce());
  }

  /** An object written whole has a temp file of its exact key: keys one folder folds together never share one. */
  @Test
  void keysThatDifferOnlyInCaseNeverShareATempFile() {
    Path dir = Path.of("/data/out/sub");
    String upper = KeyPaths.tempPath(dir.resolve("README"), "job", KeyPaths.keyNonce("sub/README")).getFileName().toString();
    String lower = KeyPaths.tempPath(dir.resolve("readme"), "job", KeyPaths.keyNonce("sub/readme")).getFileName().toString();
    assertThat(upper.toLowerCase(java.util.Locale.ROOT)).isNotEqualTo(lower.toLowerCase(java.util.Locale.ROOT));
    assertThat(KeyPaths.keyNonce("sub/README")).matches("[0-9a-f]{12}").isEqualTo(KeyPaths.keyNonce("sub/README"));
    assertThat(KeyPaths.isTempNameOf(upper, "job")).isTrue();
  }

  /** Which names are whose: cleanup and a rerun remove their own job's and nothing else. */
  @ParameterizedTest(name = "{0}: staging {1}, job ''job''s {2}")
  @CsvSource(delimiter = '|', value = {
      ".f.ferry-job.tmp                 | true  | true",
      ".f.ferry-job.0123456789ab.tmp    | true  | true",
      ".f.ferry-other-job.tmp           | true  | false",
      ".f.ferry-job.0123456789abc.tmp   | true  | false",
      ".f.ferry-myjob.tmp               | true  | false",
      ".ferry-job.marker                | true  | true",
      ".ferry-other.marker              | true  | false",
      ".ferry-0123456789abcdef0123456789abcdef-job.tmp              | true  | true",
      ".ferry-0123456789abcdef0123456789abcdef-job.0123456789ab.tmp | true  | true",
      ".ferry-0123456789abcdef0123456789abcdef-other.tmp            | true  | false",
      "f.ferry-job.tmp                  | false | false",
      ".f.tmp                           | false | false",
      "file.tmp                         | false | false",
      ".ferry-job.tmp                   | false | false"})
  void tempNamesOfAJobAndOfAnyJob(String name, boolean staging, boolean ours) {
    assertThat(KeyPaths.isTempName(name)).as("staging").isEqualTo(staging);
    assertThat(KeyPaths.isTempNameOf(name, "job")).as("the job's").isEqualTo(ours);
  }

  @Test
  void aKeyShapedLikeATempFileOrMarkerIsRejected() throws Exception {
    assertThatThrownBy(() -> KeyPaths.resolve(ROOT, "d/.x.ferry-other.tmp")).isInstanceOf(UnsafeKeyException.class)
        .hasMessageContaining("Ferry's own temp files");
    assertThatThrownBy(() -> KeyPaths.resolve(ROOT, ".ferry-job.marker")).isInstanceOf(UnsafeKeyException.class);
    assertThat(KeyPaths.resolve(ROOT, "d/x.tmp")).isEqualTo(ROOT.resolve("d/x.tmp"));
  }

  @Test
  void nonceDigitsAreTheLow48BitsInTwelveLowerCaseHexDigits() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(48);
    for (long v : new long[] {0, 1, -1, 0xFFFF_FFFF_FFFFL, 0x1_0000_0000_0000L, Long.MIN_VALUE, Long.MAX_VALUE}) {
      assertThat(KeyPaths.hex48(v)).as("%x", v).isEqualTo(String.format("%012x", v & 0xFFFF_FFFF_FFFFL));
    }
    for (int i = 0; i < 1000; i++) {
      long v = random.nextLong();
      assertThat(KeyPaths.hex48(v)).isEqualTo(String.format("%012x", v & 0xFFFF_FFFF_FFFFL));
    }
    assertThat(KeyPaths.keyNonce("sub/README")).isEqualTo(String.format("%012x", fnv("sub/README") & 0xFFFF_FFFF_FFFFL));
  }

  private static long fnv(String key) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < key.length(); i++) {
      h ^= key.charAt(i);
      h *= 0x100000001b3L;
    }
    return h;
  }
}
