package io.ferry.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Reads a job file (HOCON) plus {@code -Dferry.key=value} overrides into one validated {@link MigrationConfig}.
 *
 * <p>Defaults live only in {@code reference.conf}. Every problem is collected (not just the first) and names the
 * key, the value found and what is allowed; an unknown key gets the nearest known one as a suggestion. Secret
 * values are never echoed.
 */
public final class ConfigLoader {
  static final String ROOT = "ferry";
  /** S3's smallest multipart part (except the last part). */
  public static final long MIN_MULTIPART_PART = 5L * 1024 * 1024;
  public static final long MAX_PART = 5L * 1024 * 1024 * 1024;

  private final Config reference;
  private final List<String> problems = new ArrayList<>();
  private Config config;

  private ConfigLoader() {
    this.reference = ConfigFactory.defaultReference(ConfigLoader.class.getClassLoader());
  }

  /** Loads and validates {@code file} with {@code overrides} (paths such as {@code ferry.plan.part-size}) on top. */
  public static MigrationConfig load(Path file, Map<String, String> overrides) {
    if (!Files.isRegularFile(file)) {
      throw new ConfigException(List.of("job file " + file + " does not exist or is not a file"));
    }
    Config user;
    try {
      user = ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
    } catch (com.typesafe.config.ConfigException e) {
      throw new ConfigException(List.of("cannot parse " + file + ": " + e.getMessage()));
    }
    return fromConfig(user, overrides);
  }

  /** Validates an already parsed (unresolved) user config; used by {@link #load} and tests. */
  public static MigrationConfig fromConfig(Config user, Map<String, String> overrides) {
    return new ConfigLoader().validate(user, overrides);
  }

  private MigrationConfig validate(Config user, Map<String, String> overrides) {
    try {
      config = ConfigFactory.parseMap(overrides, "command line (-D)")
          .withFallback(user)
          .withFallback(reference)
          .resolve();
    } catch (com.typesafe.config.ConfigException e) {
      throw new ConfigException(List.of(e.getMessage()
          + (e instanceof com.typesafe.config.ConfigException.UnresolvedSubstitution
              ? " (for an optional environment variable write ${?NAME})"
              : "")));
    }
    checkUnknownKeys();

    String jobName = string("job.name");
    if (jobName.isBlank() || !jobName.matches("[A-Za-z0-9._-]+")) {
      problem("job.name", jobName, "must be a non-empty name of letters, digits, '.', '_' or '-' (it names the report folder)");
    }
    SourceConfig source = source();
    DestinationConfig destination = destination(source);
    PlanConfig plan = plan(destination);
    CopyConfig copy = copy();
    String reportPath = string("report.path");
    if (reportPath.isBlank()) problem("report.path", reportPath, "must be a local path or s3a://bucket/prefix");
    String master = string("spark.master");
    if (!problems.isEmpty()) throw new ConfigException(problems);
    return new MigrationConfig(jobName, source, destination, plan, copy, reportPath, master);
  }

  private SourceConfig source() {
    StoreKind kind = kind("source.type", StoreKind.S3);
    String bucket = string("source.bucket");
    String prefix = string("source.prefix");
    String path = string("source.path");
    S3EndpointConfig endpoint = kind == StoreKind.S3 ? endpoint("source") : S3EndpointConfig.withKeys("", "us-east-1", "", "");
    if (kind == StoreKind.S3) {
      if (bucket.isBlank()) {
        problems.add("ferry.source.bucket is not set: name the bucket to copy from, e.g. source.bucket = \"media-archive\"");
      }
      if (prefix.startsWith("/")) problem("source.prefix", prefix, "must not start with '/' (keys have no leading slash)");
    } else if (path.isBlank()) {
      problems.add("ferry.source.path is not set: name the directory to copy from, e.g. source.path = \"/mnt/nfs/exports\"");
    }
    return new SourceConfig(kind, endpoint, bucket, prefix, path, stringList("source.includes"), stringList("source.excludes"));
  }

  /** s3 or file; a bad value is a problem, and validation goes on as if it were {@code fallback}. */
  private StoreKind kind(String key, StoreKind fallback) {
    String type = string(key);
    return switch (type) {
      case "s3" -> StoreKind.S3;
      case "file" -> StoreKind.FILE;
      default -> {
        problem(key, type, "must be s3 (an S3-compatible bucket) or file (a local, NFS or block-volume directory)");
        yield fallback;
      }
    };
  }

  private S3EndpointConfig endpoint(String side) {
    String endpoint = string(side + ".endpoint");
    if (!endpoint.isEmpty() && !endpoint.matches("https?://[^/\\s]+(/.*)?")) {
      problem(side + ".endpoint", endpoint, "must be an http:// or https:// URL, or empty for AWS S3");
    }
    String region = string(side + ".region");
    if (region.isBlank()) problem(side + ".region", region, "must name the region, e.g. us-east-1 or jp-tok");
    boolean pathStyle = bool(side + ".path-style");
    S3EndpointConfig.CredentialsType credentialsType = enumValue(
        side + ".credentials.type", S3EndpointConfig.CredentialsType.class, S3EndpointConfig.CredentialsType.STATIC);
    String keyId = string(side + ".credentials.access-key-id");
    Secret secret = new Secret(string(side + ".credentials.secret-access-key"));
    Secret apiKey = new Secret(string(side + ".credentials.api-key"));
    String tokenUrl = string(side + ".credentials.token-url");
    String env = side.equals("source") ? "SRC" : "DST";
    switch (credentialsType) {
      case STATIC -> {
        if (keyId.isBlank()) {
          problems.add("ferry." + side + ".credentials.access-key-id is empty: set it, e.g. access-key-id = ${?" + env
              + "_ACCESS_KEY_ID}, or set credentials.type = default-chain to use the AWS SDK's credential chain");
        }
        if (secret.isEmpty()) {
          problems.add("ferry." + side + ".credentials.secret-access-key is empty: set it, e.g. secret-access-key = ${?" + env
              + "_SECRET_ACCESS_KEY} (never write the secret itself in the file), or set credentials.type = default-chain");
        }
      }
      case IBM_IAM -> {
        if (apiKey.isEmpty()) {
          problems.add("ferry." + side + ".credentials.api-key is empty: credentials.type = ibm-iam needs an IBM Cloud API key,"
              + " e.g. api-key = ${?" + env + "_IBM_API_KEY}");
        }
        if (!tokenUrl.matches("https?://\\S+")) problem(side + ".credentials.token-url", tokenUrl, "must be an http(s) URL");
      }
      case DEFAULT_CHAIN -> { }
    }
    S3EndpointConfig.ChecksumMode checksumMode = enumValue(
        side + ".checksum-mode", S3EndpointConfig.ChecksumMode.class, S3EndpointConfig.ChecksumMode.WHEN_REQUIRED);
    return new S3EndpointConfig(endpoint, region, pathStyle, credentialsType, keyId, secret, apiKey, tokenUrl, checksumMode,
        bool(side + ".unsigned-payload"));
  }

  private DestinationConfig destination(SourceConfig source) {
    StoreKind kind = kind("destination.type", StoreKind.FILE);
    String path = string("destination.path");
    String bucket = string("destination.bucket");
    String prefix = string("destination.prefix");
    S3EndpointConfig endpoint = kind == StoreKind.S3 ? endpoint("destination") : S3EndpointConfig.withKeys("", "us-east-1", "", "");
    String sse = string("destination.server-side-encryption");
    DestinationConfig.ServerSideCopy serverSideCopy = enumValue("destination.server-side-copy",
        DestinationConfig.ServerSideCopy.class, DestinationConfig.ServerSideCopy.AUTO);
    java.util.Map<String, String> tags = new java.util.TreeMap<>();
    try {
      for (var e : config.getConfig(ROOT + ".destination.tags").entrySet()) tags.put(e.getKey(), String.valueOf(e.getValue().unwrapped()));
    } catch (com.typesafe.config.ConfigException e) {
      problem("destination.tags", "", "must be an object of tag names and values, e.g. tags { project = \"archive\" }");
    }
    if (kind == StoreKind.FILE) {
      if (path.isBlank()) {
        problems.add("ferry.destination.path is not set: name the directory to copy into, e.g. destination.path = \"/mnt/nfs/migrated\"");
      }
    } else {
      if (bucket.isBlank()) {
        problems.add("ferry.destination.bucket is not set: name the bucket to copy into, e.g. destination.bucket = \"media-archive-copy\"");
      }
      if (prefix.startsWith("/")) problem("destination.prefix", prefix, "must not start with '/' (keys have no leading slash)");
      if (!List.of("", "AES256", "aws:kms").contains(sse)) {
        problem("destination.server-side-encryption", sse, "must be empty (the bucket's default), AES256 or aws:kms");
      }
      if (serverSideCopy == DestinationConfig.ServerSideCopy.ALWAYS && source.kind() != StoreKind.S3) {
        problem("destination.server-side-copy", "always", "needs a bucket source; set it to auto or never for a file source");
      }
    }
    return new DestinationConfig(kind, path, endpoint, bucket, prefix, string("destination.storage-class"), sse,
        string("destination.kms-key-id"), serverSideCopy, tags);
  }

  private PlanConfig plan(DestinationConfig destination) {
    long partSize = bytes("plan.part-size", () -> 64L << 20);
    if (destination.kind() == StoreKind.S3 && partSize < MIN_MULTIPART_PART) {
      problem("plan.part-size", partSize, "is too small for a bucket destination: S3 multipart parts must be at least 5MiB"
          + " (except the last); set ferry.plan.part-size to 5MiB or more");
    }
    long bundleSize = bytes("plan.bundle-size", () -> 128L << 20);
    int bundleObjects = integer("plan.bundle-objects", 128);
    if (partSize < 1) problem("plan.part-size", partSize, "must be at least 1 byte (64MiB is a good start)");
    if (partSize > MAX_PART) problem("plan.part-size", partSize, "must be at most 5GiB (S3's largest part)");
    if (bundleSize < 1) problem("plan.bundle-size", bundleSize, "must be at least 1 byte");
    if (bundleObjects < 1) problem("plan.bundle-objects", bundleObjects, "must be at least 1");
    long copyCutoff = bytes("plan.copy-cutoff", () -> 4656L << 20);
    if (copyCutoff < 0 || copyCutoff > MAX_PART) {
      problem("plan.copy-cutoff", copyCutoff, "must be between 0 and 5GiB (S3's largest CopyObject)");
    }
    return problems.isEmpty()
        ? new PlanConfig(partSize, bundleSize, bundleObjects, copyCutoff)
        : new PlanConfig(Math.max(1, partSize), Math.max(1, bundleSize), Math.max(1, bundleObjects), 0);
  }

  private CopyConfig copy() {
    int streams = integer("copy.streams-per-task", 16);
    int retries = integer("copy.retries", 5);
    Duration backoff = duration("copy.backoff");
    Duration maxBackoff = duration("copy.max-backoff");
    Duration stall = duration("copy.stall-timeout");
    boolean skip = bool("copy.skip-unchanged");
    long buffer = bytes("copy.buffer-size", () -> 1L << 20);
    if (streams < 1 || streams > 256) problem("copy.streams-per-task", streams, "must be between 1 and 256");
    if (retries < 0 || retries > 100) problem("copy.retries", retries, "must be between 0 and 100");
    if (stall.compareTo(Duration.ofSeconds(1)) < 0) problem("copy.stall-timeout", stall, "must be at least 1s");
    if (buffer < 4096 || buffer > (64L << 20)) problem("copy.buffer-size", buffer, "must be between 4KiB and 64MiB");
    if (!problems.isEmpty()) return new CopyConfig(1, 0, backoff, maxBackoff, Duration.ofSeconds(30), skip, 1 << 20);
    return new CopyConfig(streams, retries, backoff, maxBackoff, stall, skip, (int) buffer);
  }

  // ---- typed getters that turn wrong types into problems ----

  private String string(String key) {
    return get(key, () -> config.getString(ROOT + "." + key), "", "a string");
  }

  private boolean bool(String key) {
    return get(key, () -> config.getBoolean(ROOT + "." + key), false, "true or false");
  }

  private int integer(String key, int fallback) {
    return get(key, () -> config.getInt(ROOT + "." + key), fallback, "a whole number");
  }

  private long bytes(String key, Supplier<Long> fallback) {
    return get(key, () -> config.getBytes(ROOT + "." + key), fallback.get(), "a size such as 64MiB, 512KiB or 1GiB");
  }

  private Duration duration(String key) {
    return get(key, () -> config.getDuration(ROOT + "." + key), Duration.ofSeconds(1), "a duration such as 200ms, 30s or 5m");
  }

  private List<String> stringList(String key) {
    return get(key, () -> config.getStringList(ROOT + "." + key), List.of(), "a list of strings, e.g. [\"**/*.log\"]");
  }

  private <E extends Enum<E>> E enumValue(String key, Class<E> type, E fallback) {
    String raw = string(key);
    String normalized = raw.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equals(normalized)) return constant;
    }
    List<String> allowed = new ArrayList<>();
    for (E constant : type.getEnumConstants()) allowed.add(constant.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    problem(key, raw, "must be one of " + String.join(" | ", allowed));
    return fallback;
  }

  private <T> T get(String key, Supplier<T> getter, T fallback, String expected) {
    try {
      return getter.get();
    } catch (com.typesafe.config.ConfigException.Missing e) {
      problems.add("ferry." + key + " is missing: it must be " + expected);
    } catch (com.typesafe.config.ConfigException e) {
      problem(key, "", "is not " + expected);
    }
    return fallback;
  }

  /** Adds "ferry.key = value (file: line) rule"; the value as written in the file where there is one. */
  private void problem(String key, Object value, String rule) {
    Object shown = value;
    if (config.hasPath(ROOT + "." + key)) shown = config.getValue(ROOT + "." + key).unwrapped();
    problems.add("ferry." + key + " = " + (isSecret(key) ? "****" : String.valueOf(shown)) + where(key) + " " + rule);
  }

  private static boolean isSecret(String key) {
    return key.endsWith("secret-access-key");
  }

  /** " (conf/job.conf: 12)" when the value came from a user file, so the message points at the line to fix. */
  private String where(String key) {
    try {
      ConfigOrigin origin = config.getValue(ROOT + "." + key).origin();
      if (origin.resource() != null && origin.resource().equals("reference.conf")) return "";
      String description = origin.description();
      return description == null || description.contains("reference.conf") ? "" : " (" + description + ")";
    } catch (com.typesafe.config.ConfigException e) {
      return "";
    }
  }

  private void checkUnknownKeys() {
    if (!config.hasPath(ROOT)) return;
    TreeSet<String> known = new TreeSet<>();
    for (Map.Entry<String, ConfigValue> e : reference.getConfig(ROOT).entrySet()) known.add(e.getKey());
    for (Map.Entry<String, ConfigValue> e : config.getConfig(ROOT).entrySet()) {
      String key = e.getKey();
      if (known.contains(key) || key.startsWith("destination.tags.")) continue;
      String where = " (" + e.getValue().origin().description() + ")";
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
