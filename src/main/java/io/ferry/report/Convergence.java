package io.ferry.report;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How fast delta passes converge on a source that writers keep changing, from one pass's keys and stage times: its
 * seconds split into those that grow with its keys and those that do not ({@code a} + {@code b} a key), and the rate at
 * which keys changed since the last pass ({@code r}). Passes run back to back settle where a pass's changes are those
 * made while the one before ran, T = a + b r T, so T = a / (1 - b r): that is the cut-over's last pass once writers stop.
 * Where b r is 1 or more, each pass takes longer than the time in which as many keys change: they never converge.
 *
 * @param from where the pass's keys came from: "events" or "inventory-diff"
 * @param keys the changed keys it looked up
 * @param hoursSinceLast hours since the last pass that read every change began; 0 where unknown (a first pass)
 * @param changesPerHour keys changed an hour since then; 0 where unknown
 * @param fixedSeconds the pass's seconds that do not grow with its keys
 * @param secondsPerKey the rest, per key
 * @param settleSeconds what passes run back to back settle at; 0 where the rate is unknown, -1 where they never do
 */
public record Convergence(String from, long keys, double hoursSinceLast, double changesPerHour, double fixedSeconds,
    double secondsPerKey, double settleSeconds) {
  /**
   * Stages whose time grows with a pass's keys: the lookups, the copy and its commit, the deletions. Reading the changes
   * ("changes") is counted fixed: a queue's last receive's wait is most of it below ten thousand messages
   * (bench/results/delta.md).
   */
  static final Set<String> PER_KEY = Set.of("list", "open", "copy", "commit", "delete");

  /** What a pass of {@code keys} keys that took {@code stages} (name to seconds) says. */
  public static Convergence of(String from, long keys, double hoursSinceLast, Map<String, Double> stages) {
    double fixed = 0, growing = 0;
    for (Map.Entry<String, Double> s : stages.entrySet()) {
      if (PER_KEY.contains(s.getKey())) growing += s.getValue();
      else fixed += s.getValue();
    }
    double perKey = keys > 0 ? growing / keys : 0;
    double rate = hoursSinceLast > 0 ? keys / hoursSinceLast : 0;
    return new Convergence(from, keys, hoursSinceLast, rate, fixed, perKey, rate == 0 ? 0 : settle(fixed, perKey, rate / 3600));
  }

  /** a / (1 - b r) for r keys a second, or -1 where b r is 1 or more. */
  static double settle(double fixedSeconds, double secondsPerKey, double keysPerSecond) {
    double load = secondsPerKey * keysPerSecond;
    return load >= 1 ? -1 : fixedSeconds / (1 - load);
  }

  /**
   * What the next pass and the cut-over would take, as this pass measured them ({@code a} and {@code b}), for {@code
   * keys} changed in {@code hoursSinceLast} hours (0: unknown, this pass's rate stands).
   */
  public Projection project(long keys, double hoursSinceLast) {
    double rate = hoursSinceLast > 0 ? keys / hoursSinceLast : changesPerHour;
    return new Projection(keys, fixedSeconds + secondsPerKey * keys, rate, rate == 0 ? 0 : settle(fixedSeconds, secondsPerKey,
        rate / 3600));
  }

  /**
   * A projection from a pass measured earlier: the next pass's seconds for its keys, the rate of change, and what passes
   * settle at (0 where the rate is unknown, -1 where they never do): once writers stop, the last pass takes that long,
   * which is the cut-over window before the proof.
   */
  public record Projection(long keys, double nextSeconds, double changesPerHour, double settleSeconds) {
    /** For {@code plan}'s console, {@code run} naming the pass measured. */
    public String line(String run) {
      String next = String.format(Locale.ROOT, "the next pass about %s for its %d keys (as run %s measured a pass)",
          Units.duration(nextSeconds), keys, run);
      if (changesPerHour == 0) return next + "; the window is known once a second pass gives the rate of change";
      String rate = String.format(Locale.ROOT, "; at %.0f changes an hour", changesPerHour);
      if (settleSeconds < 0) return next + rate + " passes cannot keep up with the writers: stop them, then run one pass";
      return next + rate + " passes settle at " + Units.duration(settleSeconds) + ": once writers stop, the last pass takes about that"
          + " long (the cut-over window), then verify --manifest";
    }
  }

  /** For the console. */
  public String line() {
    String pass = String.format(Locale.ROOT, "this pass: %s that do not grow with its keys, %.1f ms a key", Units.duration(fixedSeconds),
        secondsPerKey * 1000);
    if (changesPerHour == 0) {
      return String.format(Locale.ROOT, "%d keys changed; %s; the rate of change is known from the second pass on", keys, pass);
    }
    String rate = String.format(Locale.ROOT, "%d keys changed in %s (%.0f an hour); %s", keys, Units.duration(hoursSinceLast * 3600),
        changesPerHour, pass);
    if (settleSeconds < 0) {
      return rate + "; passes cannot keep up with the writers (each takes longer than the time in which as many keys change): add"
          + " executors, or stop the writers and run one pass";
    }
    return rate + "; passes run back to back settle at " + Units.duration(settleSeconds) + ", the cut-over's last pass once writers"
        + " stop";
  }
}
