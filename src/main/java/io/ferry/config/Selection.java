package io.ferry.config;

import java.io.Serializable;
import java.util.List;

/**
 * Which objects a job copies, as one predicate on both sides (what the source lists, and what the destination holds
 * that a cut-over pass may delete): folders under the prefix, include and exclude globs on the key relative to the
 * prefix, a size range and a modification-time range (both ends inclusive; {@code Long.MIN_VALUE}/{@code MAX_VALUE}
 * when open).
 *
 * @param prefixes folders relative to the prefix (or directory), each ending in '/' and none inside another; empty
 *     for all of it
 */
public record Selection(List<String> prefixes, List<String> include, List<String> exclude, long minSize, long maxSize,
    long modifiedAfterMillis, long modifiedBeforeMillis) implements Serializable {
  public static final Selection ALL = globs(List.of("**"), List.of());

  public Selection {
    prefixes = List.copyOf(prefixes);
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
    if (minSize < 0 || maxSize < minSize) throw new IllegalArgumentException("the size range is empty: " + minSize + ".." + maxSize);
  }

  /** Only globs: every folder, size and time. */
  public static Selection globs(List<String> include, List<String> exclude) {
    return new Selection(List.of(), include, exclude, 0, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /** Whether a key relative to the prefix lies in one of the folders (all keys do when there are none). */
  public boolean underPrefixes(String relativeKey) {
    if (prefixes.isEmpty()) return true;
    for (String p : prefixes) if (relativeKey.startsWith(p)) return true;
    return false;
  }
}
