package io.ferry.config;

import java.io.Serializable;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * {@code ferry.source.archived} and {@code ferry.source.restore}: what becomes of an object archived at the source.
 *
 * @param tier the retrieval tier a RestoreObject asks for, as S3 names it (Expedited, Standard, Bulk)
 * @param days how long a restored copy stays readable
 * @param waitFor how long one run waits for its restores before it ends with them pending
 * @param poll the first wait between two listings while it waits (doubling, up to {@link #MAX_POLL})
 */
public record ArchivedConfig(Policy policy, String tier, int days, Duration waitFor, Duration poll) implements Serializable {
  /** The longest wait between two listings of a run that waits for restores. */
  public static final Duration MAX_POLL = Duration.ofMinutes(30);

  public static final ArchivedConfig FAIL = new ArchivedConfig(Policy.FAIL, "Standard", 7, Duration.ZERO, Duration.ofMinutes(1));

  public enum Policy {
    /** Each archived object fails the run; nothing is sent for it. */
    FAIL,
    /** Each is reported and left. */
    SKIP,
    /** Each is restored, and copied once readable. */
    RESTORE;

    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public ArchivedConfig {
    Objects.requireNonNull(policy, "policy is null");
    Objects.requireNonNull(tier, "tier is null");
    Objects.requireNonNull(waitFor, "waitFor is null");
    Objects.requireNonNull(poll, "poll is null");
  }

  /** How long to wait after {@code waited} earlier waits of this run: {@link #poll}, doubling, at most {@link #MAX_POLL}. */
  public Duration pollAfter(int waited) {
    Duration next = poll;
    for (int i = 0; i < waited && next.compareTo(MAX_POLL) < 0; i++) next = next.multipliedBy(2);
    return next.compareTo(MAX_POLL) > 0 ? MAX_POLL : next;
  }
}
