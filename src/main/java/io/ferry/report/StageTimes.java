package io.ferry.report;

import java.util.LinkedHashMap;
import java.util.Map;

/** Seconds per stage of the run, in order, for the summary: where the wall time went. */
public final class StageTimes {
  private final Map<String, Double> laps = new LinkedHashMap<>();
  private long last = System.nanoTime();

  /** Ends the stage {@code stage}: the time since the previous lap (or since this was made). */
  public void lap(String stage) {
    long now = System.nanoTime();
    laps.put(stage, Math.round((now - last) / 1e6) / 1000.0);
    last = now;
  }

  public Map<String, Double> laps() {
    return laps;
  }
}
