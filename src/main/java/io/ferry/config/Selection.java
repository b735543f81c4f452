package io.ferry.config;

import java.io.Serializable;
import java.util.List;

/**
 * Which of the listed objects a job copies: include and exclude globs on the key relative to the prefix, a size range
 * and a modification-time range (both ends inclusive; {@code Long.MIN_VALUE}/{@code MAX_VALUE} when open).
 */
public record Selection(List<String> include, List<String> exclude, long minSize, long maxSize, long modifiedAfterMillis,
    long modifiedBeforeMillis) implements Serializable {
  public static final Selection ALL = new Selection(List.of("**"), List.of(), 0, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE);

  public Selection {
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
    if (minSize < 0 || maxSize < minSize) throw new IllegalArgumentException("the size range is empty: " + minSize + ".." + maxSize);
  }

  /** Only globs: every size and time. */
  public static Selection globs(List<String> include, List<String> exclude) {
    return new Selection(include, exclude, 0, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE);
  }
}
