package io.ferry.copy;

/**
 * How many streams an executor runs at once under {@code copy.streams-per-task = auto}, as a pure function of what
 * the last window measured: climb while more streams give a higher aggregate rate, go back to the count past which
 * they stopped giving it, hold there (its rate the mean of the windows held), then probe a quarter higher; back off
 * when the stores push back (more than one range in twenty of a window retried). A window in which no range waited
 * for a stream says nothing about more streams and changes nothing.
 *
 * @param min the fewest streams (per executor)
 * @param max the most streams (per executor)
 * @param gain how much higher a window's rate must be to count as a gain (0.10: 10%), above the noise of one window
 * @param holdWindows windows spent at a settled count before the next probe
 */
public record StreamTuning(int min, int max, double gain, int holdWindows) {
  public StreamTuning {
    if (min < 1 || max < min) throw new IllegalArgumentException("streams between " + min + " and " + max);
  }

  public enum Phase { CLIMB, HOLD }

  /**
   * @param limit the streams allowed now
   * @param base the count the climb started from, whose rate is {@code baseRate} (0: none measured yet); in HOLD, 0
   * @param baseRate in CLIMB the base's rate; in HOLD the mean rate of the windows held so far
   * @param ceiling the most streams allowed after the stores pushed back (max until they do)
   * @param held windows held so far
   */
  public record State(int limit, Phase phase, int base, double baseRate, int ceiling, int held) {}

  /**
   * A window's measure.
   *
   * @param bytesPerSecond the executor's aggregate rate over the window
   * @param saturated some range waited for a stream in it: every stream allowed was busy
   * @param finished ranges that finished in it
   * @param retried of those, the ranges that had to be retried (throttling, resets, stalls)
   */
  public record Window(double bytesPerSecond, boolean saturated, int finished, int retried) {
    /** More than one range in twenty retried: the stores push back, not a stray failure. */
    boolean pushedBack() {
      return retried > 0 && retried * 20L > finished;
    }
  }

  public State start(int limit) {
    int l = Math.max(min, Math.min(max, limit));
    return new State(l, Phase.CLIMB, 0, 0, max, 0);
  }

  public State next(State s, Window w) {
    if (w.pushedBack()) { // fewer, and no higher than this for a while
      int fewer = Math.max(min, Math.min(s.limit() - 1, s.limit() * 3 / 4));
      return new State(fewer, Phase.HOLD, 0, 0, fewer, 0);
    }
    if (!w.saturated()) return s;
    if (s.phase() == Phase.HOLD) {
      double mean = (s.baseRate() * s.held() + w.bytesPerSecond()) / (s.held() + 1);
      if (s.held() + 1 < holdWindows) return new State(s.limit(), Phase.HOLD, 0, mean, s.ceiling(), s.held() + 1);
      int ceiling = Math.min(max, s.ceiling() + Math.max(1, s.ceiling() / 4)); // a push-back is forgiven slowly
      int probe = Math.min(ceiling, s.limit() + Math.max(1, s.limit() / 4));
      return probe == s.limit() ? new State(s.limit(), Phase.HOLD, 0, 0, ceiling, 0)
          : new State(probe, Phase.CLIMB, s.limit(), mean, ceiling, 0);
    }
    boolean measured = s.base() > 0 && s.baseRate() > 0;
    if (measured && !(w.bytesPerSecond() / s.baseRate() - 1 >= gain)) { // more streams gave no more: back to the base
      return new State(s.base(), Phase.HOLD, 0, 0, s.ceiling(), 0);
    }
    int more = Math.min(s.ceiling(), s.limit() * 2);
    return more == s.limit() ? new State(s.limit(), Phase.HOLD, 0, 0, s.ceiling(), 0)
        : new State(more, Phase.CLIMB, s.limit(), w.bytesPerSecond(), s.ceiling(), 0);
  }
}
