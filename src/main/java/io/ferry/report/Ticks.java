package io.ferry.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** An axis's ticks: round values (1, 2 or 5 times a power of ten apart) from 0 to the axis's end, about as many as asked. */
final class Ticks {
  private Ticks() {}

  /** The round step that cuts {@code max} into about {@code target} parts. */
  static double step(double max, int target) {
    if (!(max > 0) || target < 1) return 1;
    double raw = max / target;
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    double normal = raw / magnitude;
    double nice = normal <= 1 ? 1 : normal <= 2 ? 2 : normal <= 5 ? 5 : 10;
    return nice * magnitude;
  }

  /** The ticks from 0 up to {@code max} (inclusive, allowing for rounding). */
  static List<Double> of(double max, int target) {
    double step = step(max, target);
    List<Double> ticks = new ArrayList<>();
    for (int i = 0; i * step <= max * (1 + 1e-9) + 1e-12 && i <= 4 * target; i++) ticks.add(i * step);
    return ticks;
  }

  /** A tick's label: no more decimals than its step needs. */
  static String label(double value, double step) {
    int decimals = step >= 1 ? 0 : (int) Math.ceil(-Math.log10(step) - 1e-9);
    return String.format(Locale.ROOT, "%." + decimals + "f", value);
  }
}
