package io.ferry.report;

import java.util.Locale;

/** Human-readable sizes (binary units) and durations, for the console and the report. */
public final class Units {
  private Units() {}

  public static String bytes(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double value = bytes;
    int unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return unit == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }

  /** {@code 42 s}, {@code 12 min}, {@code 3.4 h}, {@code 2.1 days}. */
  public static String duration(double seconds) {
    if (seconds < 120) return String.format(Locale.ROOT, "%.0f s", seconds);
    if (seconds < 2 * 3600) return String.format(Locale.ROOT, "%.0f min", seconds / 60);
    if (seconds < 2 * 86400) return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
    return String.format(Locale.ROOT, "%.1f days", seconds / 86400);
  }
}
