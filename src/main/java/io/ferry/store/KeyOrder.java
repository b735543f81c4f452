package io.ferry.store;

import java.util.Comparator;
import java.util.Locale;

/**
 * The order S3 lists keys in: by their UTF-8 bytes, which is code point order. Java's {@code String.compareTo}
 * compares UTF-16 units instead, and puts a key with a character above U+FFFF (a surrogate pair) before one with a
 * character in U+E000–U+FFFF, where S3 puts it after.
 */
public final class KeyOrder {
  /** Appended to a prefix, a key after every key that starts with the prefix (U+10FFFF, the last code point). */
  public static final String LAST = "\uDBFF\uDFFF";

  public static final Comparator<String> COMPARATOR = KeyOrder::compare;

  private KeyOrder() {}

  public static int compare(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x == y) continue;
      boolean xs = Character.isSurrogate(x);
      boolean ys = Character.isSurrogate(y);
      if (xs != ys) return xs ? 1 : -1; // a surrogate stands for a code point above every other char
      return x - y;
    }
    return a.length() - b.length();
  }

  /**
   * The key two sides of a copy are joined by: the relative key itself, or, for a destination that folds case (a
   * filesystem where "a.txt" and "A.TXT" are one file), its case folded.
   */
  public static String joinKey(String relativeKey, boolean foldsCase) {
    return foldsCase ? relativeKey.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT) : relativeKey;
  }

  /** The longest common prefix of two keys, never ending inside a surrogate pair. */
  public static String commonPrefix(String a, String b) {
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(i) == b.charAt(i)) i++;
    if (i > 0 && Character.isHighSurrogate(a.charAt(i - 1))) i--;
    return a.substring(0, i);
  }
}
