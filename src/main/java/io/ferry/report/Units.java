package io.ferry.report;

import java.util.Locale;

/** Human-readable sizes (binary units), for the console and the report. */
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
}
