package io.ferry.store.listing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class GlobTest {
  @ParameterizedTest(name = "{0} ~ {1} -> {2}")
  @CsvSource({
      "**,            a/b/c.txt,     true",
      "*,             a.txt,         true",
      "*,             a/b.txt,       false",
      "*.txt,         a.txt,         true",
      "*.txt,         dir/a.txt,     false",
      "**/*.txt,      a.txt,         true",
      "**/*.txt,      d/e/a.txt,     true",
      "**/*.txt,      d/e/a.txt.gz,  false",
      "logs/**,       logs/01/x,     true",
      "logs/**,       logs2/x,       false",
      "file?.bin,     file1.bin,     true",
      "file?.bin,     file12.bin,    false",
      "[ab]*,         apple,         true",
      "[!ab]*,        apple,         false",
      "a+b(1).txt,    a+b(1).txt,    true",
      "a+b(1).txt,    aab(1).txt,    false",
  })
  void globs(String glob, String key, boolean matches) {
    assertThat(Glob.compile(glob).matches(key)).isEqualTo(matches);
  }

  @Test
  void includeThenExclude() {
    List<Glob> include = List.of(Glob.compile("**"));
    List<Glob> exclude = List.of(Glob.compile("**/*.tmp"));
    assertThat(Glob.selected("a/b.bin", include, exclude)).isTrue();
    assertThat(Glob.selected("a/b.tmp", include, exclude)).isFalse();
    assertThat(Glob.selected("b.tmp", include, exclude)).isFalse();
    assertThat(Glob.selected("x", List.of(), exclude)).isFalse();
  }
}
