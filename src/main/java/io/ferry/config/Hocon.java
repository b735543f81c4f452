package io.ferry.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException.Missing;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigValue;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * Typed reading of a resolved job config below {@code ferry.}: a missing or mistyped value becomes a problem and the
 * reading goes on with reference.conf's default, so a section's validator reads on and every problem of the file is
 * reported at once. A problem names the key, the value as written, the line it came from and the rule; a value read
 * as a {@link Secret} is never echoed.
 */
final class Hocon {
  static final String ROOT = "ferry";

  private final Config config;
  private final Config reference;
  private final List<String> problems = new ArrayList<>();
  /** Every key read (ConfigMappingTest: each key of reference.conf is read by some job, none without a default). */
  private final Set<String> read = new TreeSet<>();
  private final Set<String> secrets = new HashSet<>();

  Hocon(Config config, Config reference) {
    this.config = config;
    this.reference = reference;
  }

  List<String> problems() {
    return problems;
  }

  Set<String> keysRead() {
    return read;
  }

  String string(String key) {
    return get(key, Config::getString, "a string");
  }

  boolean bool(String key) {
    return get(key, Config::getBoolean, "true or false");
  }

  int integer(String key) {
    return get(key, Config::getInt, "a whole number");
  }

  double number(String key) {
    return get(key, Config::getDouble, "a number");
  }

  long bytes(String key) {
    return get(key, Config::getBytes, "a size such as 64MiB, 512KiB or 1GiB");
  }

  /** A size, or {@code auto}: then {@code auto} is returned. */
  long bytesOrAuto(String key, long auto) {
    return "auto".equals(string(key)) ? auto : get(key, Config::getBytes, "auto, or a size such as 64MiB, 512KiB or 1GiB");
  }

  /** A size, or {@code none} when the value is empty. */
  long optionalBytes(String key, long none) {
    return string(key).isBlank() ? none : bytes(key);
  }

  Duration duration(String key) {
    return get(key, Config::getDuration, "a duration such as 200ms, 30s or 5m");
  }

  List<String> stringList(String key) {
    return get(key, Config::getStringList, "a list of strings, e.g. [\"**/*.log\"]");
  }

  /** A value read as a {@link Secret}: its key is marked first, so no problem with it ever echoes the value. */
  Secret secret(String key) {
    secrets.add(key);
    return new Secret(string(key));
  }

  /** An object of names and string values, such as tags. */
  Map<String, String> strings(String key, String expected) {
    Map<String, String> values = new TreeMap<>();
    read.add(key);
    try {
      for (var e : config.getConfig(ROOT + "." + key).entrySet()) values.put(e.getKey(), String.valueOf(e.getValue().unwrapped()));
    } catch (com.typesafe.config.ConfigException e) {
      problem(key, "", "must be " + expected);
    }
    return values;
  }

  /**
   * An instant as epoch milliseconds: an ISO-8601 instant ("2024-03-01T12:00:00Z") or a date ("2024-03-01", midnight
   * UTC); {@code none} when empty.
   */
  long instant(String key, long none) {
    String text = string(key).trim();
    if (text.isEmpty()) return none;
    try {
      return text.length() == 10 ? LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli()
          : Instant.parse(text).toEpochMilli();
    } catch (DateTimeParseException e) {
      problem(key, text, "is not a date such as 2024-03-01 or an instant such as 2024-03-01T12:00:00Z");
      return none;
    }
  }

  /** The constant named by the value (written in lower case with '-'), or null after recording the problem. */
  <E extends Enum<E>> E enumValue(String key, Class<E> type) {
    String raw = string(key);
    String normalized = raw.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equals(normalized)) return constant;
    }
    List<String> allowed = new ArrayList<>();
    for (E constant : type.getEnumConstants()) allowed.add(constant.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    problem(key, raw, "must be one of " + String.join(" | ", allowed));
    return null;
  }

  private <T> T get(String key, BiFunction<Config, String, T> getter, String expected) {
    read.add(key);
    String path = ROOT + "." + key;
    try {
      return getter.apply(config, path);
    } catch (Missing e) {
      problems.add("ferry." + key + " is missing: it must be " + expected);
    } catch (com.typesafe.config.ConfigException e) {
      problem(key, "", "is not " + expected);
    }
    return getter.apply(reference, path);
  }

  /** Adds "ferry.key = value (file: line) rule"; the value as written in the file where there is one. */
  void problem(String key, Object value, String rule) {
    Object shown = value;
    if (config.hasPath(ROOT + "." + key)) shown = config.getValue(ROOT + "." + key).unwrapped();
    problems.add("ferry." + key + " = " + (secrets.contains(key) ? "****" : String.valueOf(shown)) + where(key) + " " + rule);
  }

  /** A problem that is a sentence of its own, such as a required key left unset. */
  void problem(String sentence) {
    problems.add(sentence);
  }

  /** " (conf/job.conf: 12)" when the value came from a user file, so the message points at the line to fix. */
  String where(String key) {
    try {
      ConfigOrigin origin = config.getValue(ROOT + "." + key).origin();
      if (origin.resource() != null && origin.resource().equals("reference.conf")) return "";
      String description = origin.description();
      return description == null || description.contains("reference.conf") ? "" : " (" + description + ")";
    } catch (com.typesafe.config.ConfigException e) {
      return "";
    }
  }

  /** Settings Ferry had and took away, with why. */
  private static final Map<String, String> REMOVED = Map.of("plan.copy-while-listing",
      "copying while the listing went on never made a measured run faster, and runs now always plan the whole listing first");

  /** A problem for each key reference.conf does not know, with the nearest known one as a suggestion. */
  void checkUnknownKeys() {
    if (!config.hasPath(ROOT)) return;
    TreeSet<String> known = new TreeSet<>();
    for (Map.Entry<String, ConfigValue> e : reference.getConfig(ROOT).entrySet()) known.add(e.getKey());
    for (Map.Entry<String, ConfigValue> e : config.getConfig(ROOT).entrySet()) {
      String key = e.getKey();
      if (known.contains(key) || key.startsWith("destination.tags.")) continue;
      String where = " (" + e.getValue().origin().description() + ")";
      if (REMOVED.containsKey(key)) {
        problems.add("ferry." + key + where + " is no longer a Ferry setting: " + REMOVED.get(key) + "; remove it from the job");
        continue;
      }
      Optional<String> suggestion = nearest(key, known);
      problems.add("ferry." + key + where + " is not a Ferry setting"
          + suggestion.map(s -> ": did you mean ferry." + s + "?").orElse("; see reference.conf for the settings"));
    }
  }

  static Optional<String> nearest(String key, Iterable<String> candidates) {
    for (String candidate : candidates) {
      if (candidate.startsWith(key + "-") || candidate.startsWith(key + ".")) return Optional.of(candidate);
    }
    record Scored(String candidate, int distance) {}
    List<Scored> scored = new ArrayList<>();
    for (String candidate : candidates) scored.add(new Scored(candidate, editDistance(key, candidate)));
    return scored.stream()
        .min(Comparator.comparingInt(Scored::distance))
        .filter(s -> s.distance() <= Math.max(3, key.length() / 4))
        .map(Scored::candidate);
  }

  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) previous[j] = j;
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
