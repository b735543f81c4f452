package io.ferry.store.listing;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Include/exclude globs on keys, as rclone users write them: {@code *} and {@code ?} stay within one path segment,
 * {@code **} crosses '/', {@code [abc]} is a character class, and a pattern matches the whole key.
 */
public final class Glob {
  private final Pattern pattern;

  private Glob(Pattern pattern) {
    this.pattern = pattern;
  }

  public static Glob compile(String glob) {
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      switch (c) {
        case '*' -> {
          if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
            i++;
            // "**/" also matches no directory at all, so "**/*.tmp" matches "a.tmp".
            if (i + 1 < glob.length() && glob.charAt(i + 1) == '/') {
              i++;
              regex.append("(?:.*/)?");
            } else {
              regex.append(".*");
            }
          } else {
            regex.append("[^/]*");
          }
        }
        case '?' -> regex.append("[^/]");
        case '[' -> {
          int close = glob.indexOf(']', i + 1);
          if (close < 0) {
            regex.append("\\[");
          } else {
            String body = glob.substring(i + 1, close);
            if (body.startsWith("!")) body = "^" + body.substring(1);
            regex.append('[').append(body.replace("\\", "\\\\")).append(']');
            i = close;
          }
        }
        default -> regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return new Glob(Pattern.compile(regex.toString(), Pattern.DOTALL));
  }

  public boolean matches(String key) {
    return pattern.matcher(key).matches();
  }

  /** A key passes when it matches some include and no exclude. */
  public static boolean selected(String key, List<Glob> include, List<Glob> exclude) {
    boolean included = include.stream().anyMatch(g -> g.matches(key));
    return included && exclude.stream().noneMatch(g -> g.matches(key));
  }
}
