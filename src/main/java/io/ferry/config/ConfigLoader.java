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
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads a job file (HOCON) plus {@code -Dferry.key=value} overrides into one validated {@link MigrationConfig}.
 *
 * <p>Defaults live only in {@code reference.conf}. Every problem is collected (not just the first) and names the
 * key, the value found and what is allowed; an unknown key gets the nearest known one as a suggestion. Secret
 * values are never echoed.
 */
public final class ConfigLoader {
  static final String ROOT = "ferry";

  private final Config reference;
  private final List<String> problems = new ArrayList<>();
  /** Every key read (ConfigMappingTest: each key of reference.conf is read by some job, none without a default). */
  private final java.util.Set<String> read = new java.util.TreeSet<>();
  private final java.util.Set<String> secrets = new java.util.HashSet<>();
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

  /** The keys (below {@code ferry.}) validating {@code user} reads, valid or not: for the mapping test. */
  static java.util.Set<String> keysRead(Config user) {
    ConfigLoader loader = new ConfigLoader();
    try {
      loader.validate(user, Map.of());
    } catch (ConfigException e) {
      // the keys read before the problems stopped it are still read
    }
    return loader.read;
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
    } else if (jobName.matches(".*\\.[0-9a-f]{12}")) {
      problem("job.name", jobName, "must not end in '.' and 12 hex digits: temp files name their opening so, and another job's would"
          + " be taken for this one's");
    }
    SourceConfig source = source();
    DestinationConfig destination = destination(string("source.type").equals("s3"));
    if (source != null && destination != null) {
      apart(source, destination);
      cutOverRules(source, destination);
    }
    PlanConfig plan = plan(destination);
    CopyConfig copy = copy();
    String reportPath = string("report.path");
    if (reportPath.isBlank()) problem("report.path", reportPath, "must be a local path or s3a://bucket/prefix");
    else if (destination != null && source != null) reportsApart(reportPath, source, destination);
    String master = string("spark.master");
    Duration progress = duration("report.progress-interval");
    if (progress.toMillis() < 100) problem("report.progress-interval", progress, "must be at least 100ms (5s is a good start)");
    ReportConfig report = new ReportConfig(reportPath, progress, bool("report.json-lines"));
    double rate = number("estimate.mb-per-s");
    if (rate < 0) problem("estimate.mb-per-s", rate, "must not be negative (0: the rate of this job's last run)");
    EstimateConfig estimate = new EstimateConfig(prices("estimate.source"), prices("estimate.destination"), Math.max(0, rate));
    long bandwidth = bytes("limits.bandwidth");
    double requestRate = number("limits.requests-per-second");
    if (bandwidth < 0) problem("limits.bandwidth", bandwidth,
        "must not be negative (bytes per second for the whole job, e.g. 200MiB; 0: none)");
    if (requestRate < 0) problem("limits.requests-per-second", requestRate,
        "must not be negative (per endpoint, for the whole job; 0: none)");
    if (!problems.isEmpty()) throw new ConfigException(problems);
    return new MigrationConfig(jobName, source, destination, plan, copy, report, estimate, new LimitsConfig(bandwidth, requestRate),
        master);
  }

  private EstimateConfig.Prices prices(String key) {
    return new EstimateConfig.Prices(price(key + ".write-per-1000"), price(key + ".read-per-1000"), price(key + ".egress-per-gb"));
  }

  private double price(String key) {
    double value = number(key);
    if (value < 0) problem(key, value, "must not be negative (USD; 0 where nothing is billed)");
    return Math.max(0, value);
  }

  private SourceConfig source() {
    StoreConfig store = switch (kind("source.type")) {
      case "file" -> {
        String path = string("source.path");
        if (path.isBlank()) {
          problems.add("ferry.source.path is not set: name the directory to copy from, e.g. source.path = \"/mnt/nfs/exports\"");
          yield null;
        }
        yield DirectoryConfig.of(path);
      }
      case "s3" -> bucket("source", "copy from", "media-archive", ObjectWrites.NONE);
      default -> null;
    };
    List<String> include = stringList("source.includes");
    List<String> exclude = stringList("source.excludes");
    long minSize = bytes("source.min-size");
    long maxSize = optionalBytes("source.max-size", Long.MAX_VALUE);
    if (minSize < 0) problem("source.min-size", minSize, "must not be negative");
    if (maxSize < minSize) problem("source.max-size", maxSize, "must be at least source.min-size (" + minSize + " bytes)");
    long after = instant("source.modified-after", Long.MIN_VALUE);
    long before = instant("source.modified-before", Long.MAX_VALUE);
    if (before < after) problem("source.modified-before", before, "must not be before source.modified-after");
    List<String> prefixes = new ArrayList<>();
    for (String p : stringList("source.prefixes")) {
      if (p.startsWith("/") || p.isBlank()) {
        problem("source.prefixes", p, "must be a folder under source.prefix (or source.path) such as \"2018/\", without a leading '/'");
      } else if (p.contains("..")) {
        problem("source.prefixes", p, "must not contain '..'");
      } else {
        prefixes.add(folder(p));
      }
    }
    prefixes = outermost(prefixes);
    String manifest = string("source.manifest");
    if (!manifest.isEmpty()) {
      if (!(store instanceof BucketConfig)) {
        problem("source.manifest", manifest, "lists objects of a bucket: set source.type = s3");
      } else if (!manifest.startsWith("s3://") && !Files.isReadable(Path.of(manifest))) {
        problem("source.manifest", manifest, "must be s3://bucket/key, or a readable file (an S3 Inventory manifest.json, or a key list)");
      } else if (!manifest.startsWith("s3://")) {
        manifest = Path.of(manifest).toAbsolutePath().normalize().toString();
      }
      if (!prefixes.isEmpty()) problem("source.prefixes", prefixes,
          "cannot be combined with source.manifest, which lists the objects itself");
    }
    boolean manifestComplete = bool("source.manifest-complete");
    if (manifestComplete && manifest.isEmpty()) {
      problem("source.manifest-complete", true, "declares source.manifest a complete inventory, and no manifest is set");
    }
    if (store == null || maxSize < minSize || before < after) return null;
    return new SourceConfig(store, new Selection(prefixes, include, exclude, minSize, maxSize, after, before), manifest,
        bool("source.manifest-check"), manifestComplete);
  }

  /**
   * The source and the destination must not overlap (one directory inside the other; one bucket of one endpoint with
   * one prefix inside the other): a copy would list its own output, and a cut-over pass would take the source's
   * objects, seen through the destination, for extraneous ones.
   */
  private void apart(SourceConfig source, DestinationConfig destination) {
    String overlap = overlap(source.store(), destination.store());
    if (overlap != null) {
      problem(destination.store() instanceof DirectoryConfig ? "destination.path" : "destination.prefix",
          destination.store() instanceof DirectoryConfig d ? d.path() : ((BucketConfig) destination.store()).prefix(),
          "overlaps the source (" + overlap + "): the destination must lie outside the source, and the source outside it");
    }
  }

  /** How two stores overlap, or null when they are apart. */
  private static String overlap(StoreConfig a, StoreConfig b) {
    if (a instanceof DirectoryConfig x && b instanceof DirectoryConfig y) {
      Path p = Path.of(x.path()), q = Path.of(y.path());
      return p.startsWith(q) || q.startsWith(p) ? x.path() + " and " + y.path() : null;
    }
    if (a instanceof BucketConfig x && b instanceof BucketConfig y && x.endpoint().sameEndpointAs(y.endpoint())
        && x.bucket().equals(y.bucket())
        && (x.prefix().startsWith(y.prefix()) || y.prefix().startsWith(x.prefix()))) {
      return "s3://" + x.bucket() + "/" + x.prefix() + " and s3://" + y.bucket() + "/" + y.prefix();
    }
    return null;
  }

  /** Reports and the ledger inside the destination would be the cut-over pass's to delete. */
  private void reportsApart(String reportPath, SourceConfig source, DestinationConfig destination) {
    String where = null;
    if (reportPath.startsWith("s3a://")) {
      String rest = reportPath.substring("s3a://".length());
      String bucket = rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : rest;
      String prefix = folder(rest.contains("/") ? rest.substring(rest.indexOf('/') + 1) : "");
      if (destination.store() instanceof BucketConfig b && b.bucket().equals(bucket)
          && (prefix.startsWith(b.prefix()) || b.prefix().startsWith(prefix))) {
        where = "the destination s3://" + b.bucket() + "/" + b.prefix();
      }
    } else if (!reportPath.contains("://")) {
      Path reports = Path.of(reportPath.startsWith("file:") ? reportPath.substring(5) : reportPath).toAbsolutePath().normalize();
      for (StoreConfig store : List.of(destination.store(), source.store())) {
        if (store instanceof DirectoryConfig d && reports.startsWith(Path.of(d.path()))) {
          where = (store == destination.store() ? "the destination " : "the source ") + d.path();
        }
      }
    }
    if (where != null) {
      problem("report.path", reportPath, "lies inside " + where + ": the job's reports and ledger must be kept apart from what it copies");
    }
  }

  /**
   * The cut-over pass deletes what the source's listing lacks, so it needs a listing of every object the selection
   * takes: a manifest only when declared a complete inventory; and it moves objects aside only to a place outside
   * the destination.
   */
  private void cutOverRules(SourceConfig source, DestinationConfig destination) {
    CutOver cut = destination.cutOver();
    if (cut.enabled() && !source.manifest().isEmpty() && !source.manifestComplete()) {
      problems.add("ferry.destination.delete-extraneous = true" + where("destination.delete-extraneous") + " with ferry.source.manifest"
          + " would delete every object the manifest does not name: a manifest names some objects, not all the source holds."
          + " If it is a complete, current inventory of the source (an S3 Inventory report of the whole selection), set"
          + " ferry.source.manifest-complete = true; otherwise run the cut-over pass from a listing (leave source.manifest empty)");
    }
    if (!cut.moves()) return;
    StoreConfig aside = destination.store() instanceof BucketConfig b ? new BucketConfig(b.endpoint(), b.bucket(), cut.moveTo())
        : DirectoryConfig.of(cut.moveTo());
    String overlap = overlap(source.store(), aside);
    if (overlap != null) problem("destination.delete-to", cut.moveTo(), "overlaps the source (" + overlap + "): it must lie outside it");
    if (destination.store() instanceof DirectoryConfig directory) {
      Path to = Path.of(cut.moveTo()), root = Path.of(directory.path());
      if (to.startsWith(root) || root.startsWith(to)) {
        problem("destination.delete-to", cut.moveTo(), "must be a directory outside ferry.destination.path (" + root
            + ") and not above it: objects moved inside the destination would be taken for objects of it");
      }
    } else if (destination.store() instanceof BucketConfig bucket) {
      if (bucket.prefix().isEmpty()) {
        problem("destination.delete-to", cut.moveTo(), "needs ferry.destination.prefix: with no prefix every key of bucket "
            + bucket.bucket() + " is the destination's, and objects moved aside would be taken for objects of it");
      } else if (cut.moveTo().startsWith(bucket.prefix()) || bucket.prefix().startsWith(cut.moveTo())) {
        problem("destination.delete-to", cut.moveTo(), "must be a key prefix of bucket " + bucket.bucket()
            + " outside ferry.destination.prefix (" + bucket.prefix() + ") and not above it");
      }
    }
  }

  /** http to 127.0.0.1, [::1] or localhost: the request never leaves the host. */
  static boolean loopbackHttp(String url) {
    return url.matches("http://(127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|\\[::1\\]|localhost)(:\\d+)?(/\\S*)?");
  }

  /** The folders not inside another of them, sorted: a key under two of them is listed once. */
  static List<String> outermost(List<String> folders) {
    List<String> sorted = new ArrayList<>(new java.util.TreeSet<>(folders));
    List<String> kept = new ArrayList<>();
    for (String f : sorted) if (kept.isEmpty() || !f.startsWith(kept.get(kept.size() - 1))) kept.add(f);
    return kept;
  }

  /** A prefix names a folder, as rclone and the AWS CLI take it: "2018" and "2018/" are both the folder "2018/". */
  static String folder(String prefix) {
    return prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
  }

  /** A size, or {@code none} when the value is empty. */
  private long optionalBytes(String key, long none) {
    return string(key).isBlank() ? none : bytes(key);
  }

  /**
   * An instant as epoch milliseconds: an ISO-8601 instant ("2024-03-01T12:00:00Z") or a date ("2024-03-01", midnight
   * UTC); {@code none} when empty.
   */
  private long instant(String key, long none) {
    String text = string(key).trim();
    if (text.isEmpty()) return none;
    try {
      return text.length() == 10 ? java.time.LocalDate.parse(text).atStartOfDay(java.time.ZoneOffset.UTC).toInstant().toEpochMilli()
          : java.time.Instant.parse(text).toEpochMilli();
    } catch (java.time.format.DateTimeParseException e) {
      problem(key, text, "is not a date such as 2024-03-01 or an instant such as 2024-03-01T12:00:00Z");
      return none;
    }
  }

  private DestinationConfig destination(boolean bucketSource) {
    DestinationConfig.ServerSideCopy serverSideCopy = enumValue("destination.server-side-copy", DestinationConfig.ServerSideCopy.class);
    StoreConfig store = switch (kind("destination.type")) {
      case "file" -> {
        String path = string("destination.path");
        if (path.isBlank()) {
          problems.add("ferry.destination.path is not set: name the directory to copy into, e.g. destination.path = \"/mnt/nfs/migrated\"");
          yield null;
        }
        yield DirectoryConfig.of(path);
      }
      case "s3" -> {
        if (serverSideCopy == DestinationConfig.ServerSideCopy.ALWAYS && !bucketSource) {
          problem("destination.server-side-copy", "always", "needs a bucket source; set it to auto or never for a file source");
        }
        yield bucket("destination", "copy into", "media-archive-copy", writes());
      }
      default -> null;
    };
    CutOver cutOver = cutOver(store);
    return store == null || serverSideCopy == null || cutOver == null ? null : new DestinationConfig(store, serverSideCopy, cutOver);
  }

  private CutOver cutOver(StoreConfig store) {
    boolean enabled = bool("destination.delete-extraneous");
    String cap = string("destination.max-delete");
    String moveTo = string("destination.delete-to").trim();
    if (!moveTo.isEmpty()) {
      if (store instanceof DirectoryConfig) {
        moveTo = Path.of(moveTo).toAbsolutePath().normalize().toString();
      } else if (moveTo.startsWith("/")) {
        problem("destination.delete-to", moveTo,
            "must be a key prefix of the destination bucket, such as \"deleted/\", without a leading '/'");
      } else {
        moveTo = folder(moveTo);
      }
    }
    try {
      return CutOver.of(enabled, cap, moveTo);
    } catch (IllegalArgumentException e) {
      problem("destination.max-delete", cap, "must be a count (e.g. 1000) or a percentage of the destination's objects in the"
          + " selection (e.g. \"50%\"; \"100%\" for no cap)");
      return null;
    }
  }

  /** s3 or file; anything else is a problem (then null). */
  private String kind(String key) {
    String type = string(key);
    if (type.equals("s3") || type.equals("file")) return type;
    problem(key, type, "must be s3 (an S3-compatible bucket) or file (a local, NFS or block-volume directory)");
    return "";
  }

  private BucketConfig bucket(String side, String verb, String example, ObjectWrites writes) {
    String bucket = string(side + ".bucket");
    String prefix = folder(string(side + ".prefix"));
    S3EndpointConfig endpoint = endpoint(side);
    if (bucket.isBlank()) {
      problems.add("ferry." + side + ".bucket is not set: name the bucket to " + verb + ", e.g. " + side + ".bucket = \"" + example + "\"");
    }
    if (prefix.startsWith("/")) problem(side + ".prefix", prefix, "must not start with '/' (keys have no leading slash)");
    return endpoint == null || writes == null ? null : new BucketConfig(endpoint, bucket, prefix, writes);
  }

  private ObjectWrites writes() {
    String sse = string("destination.server-side-encryption");
    if (!List.of("", "AES256", "aws:kms").contains(sse)) {
      problem("destination.server-side-encryption", sse, "must be empty (the bucket's default), AES256 or aws:kms");
    }
    Map<String, String> tags = new TreeMap<>();
    read.add("destination.tags");
    try {
      for (var e : config.getConfig(ROOT + ".destination.tags").entrySet()) tags.put(e.getKey(), String.valueOf(e.getValue().unwrapped()));
    } catch (com.typesafe.config.ConfigException e) {
      problem("destination.tags", "", "must be an object of tag names and values, e.g. tags { project = \"archive\" }");
    }
    return new ObjectWrites(string("destination.storage-class"), sse, string("destination.kms-key-id"), tags);
  }

  private S3EndpointConfig endpoint(String side) {
    String endpoint = string(side + ".endpoint");
    if (!endpoint.isEmpty() && !endpoint.matches("https?://[^/\\s]+(/.*)?")) {
      problem(side + ".endpoint", endpoint, "must be an http:// or https:// URL, or empty for AWS S3");
    }
    String region = string(side + ".region");
    if (region.isBlank()) problem(side + ".region", region, "must name the region, e.g. us-east-1 or jp-tok");
    boolean pathStyle = bool(side + ".path-style");
    S3EndpointConfig.CredentialsType credentialsType = enumValue(side + ".credentials.type", S3EndpointConfig.CredentialsType.class);
    String keyId = string(side + ".credentials.access-key-id");
    Secret secret = secret(side + ".credentials.secret-access-key");
    Secret apiKey = secret(side + ".credentials.api-key");
    String tokenUrl = string(side + ".credentials.token-url");
    String env = side.equals("source") ? "SRC" : "DST";
    if (credentialsType == S3EndpointConfig.CredentialsType.STATIC) {
      if (keyId.isBlank()) {
        problems.add("ferry." + side + ".credentials.access-key-id is empty: set it, e.g. access-key-id = ${?" + env
            + "_ACCESS_KEY_ID}, or set credentials.type = default-chain to use the AWS SDK's credential chain");
      }
      if (secret.isEmpty()) {
        problems.add("ferry." + side + ".credentials.secret-access-key is empty: set it, e.g. secret-access-key = ${?" + env
            + "_SECRET_ACCESS_KEY} (never write the secret itself in the file), or set credentials.type = default-chain");
      }
    } else if (credentialsType == S3EndpointConfig.CredentialsType.IBM_IAM) {
      if (apiKey.isEmpty()) {
        problems.add("ferry." + side + ".credentials.api-key is empty: credentials.type = ibm-iam needs an IBM Cloud API key,"
            + " e.g. api-key = ${?" + env + "_IBM_API_KEY}");
      }
      if (!tokenUrl.matches("https://\\S+") && !loopbackHttp(tokenUrl)) {
        problem(side + ".credentials.token-url", tokenUrl, "must be an https:// URL: the API key is sent to it (plain http only to"
            + " this host's loopback address, e.g. a local token proxy)");
      }
    }
    S3EndpointConfig.ChecksumMode checksumMode = enumValue(side + ".checksum-mode", S3EndpointConfig.ChecksumMode.class);
    boolean unsignedPayload = bool(side + ".unsigned-payload");
    String caBundle = string(side + ".ca-bundle");
    if (!caBundle.isEmpty()) {
      Path bundle = Path.of(caBundle).toAbsolutePath().normalize();
      if (!Files.isReadable(bundle)) {
        problem(side + ".ca-bundle", caBundle, "is not a readable file: name a PEM file of the CA certificates that signed the"
            + " endpoint's certificate, or leave it empty to trust the system's CAs");
      }
      caBundle = bundle.toString();
    }
    if (credentialsType == null || checksumMode == null) return null;
    return new S3EndpointConfig(endpoint, region, pathStyle,
        new S3EndpointConfig.Credentials(credentialsType, keyId, secret, apiKey, tokenUrl), checksumMode, unsignedPayload, caBundle);
  }

  private PlanConfig plan(DestinationConfig destination) {
    int before = problems.size();
    long partSize = bytes("plan.part-size");
    if (destination != null && destination.store() instanceof BucketConfig && partSize < S3Limits.MIN_PART) {
      problem("plan.part-size", partSize, "is too small for a bucket destination: S3 multipart parts must be at least 5MiB"
          + " (except the last); set ferry.plan.part-size to 5MiB or more");
    }
    long bundleSize = bytes("plan.bundle-size");
    int bundleObjects = integer("plan.bundle-objects");
    long copyCutoff = bytes("plan.copy-cutoff");
    if (partSize < 1) problem("plan.part-size", partSize, "must be at least 1 byte (64MiB is a good start)");
    if (partSize > S3Limits.MAX_PART) problem("plan.part-size", partSize, "must be at most 5GiB (S3's largest part)");
    if (bundleSize < 1) problem("plan.bundle-size", bundleSize, "must be at least 1 byte");
    if (bundleObjects < 1) problem("plan.bundle-objects", bundleObjects, "must be at least 1");
    if (copyCutoff < 0 || copyCutoff > S3Limits.MAX_PART) {
      problem("plan.copy-cutoff", copyCutoff, "must be between 0 and 5GiB (S3's largest CopyObject)");
    }
    int listingShards = integer("plan.listing-shards");
    if (listingShards < 0 || listingShards > 100_000) {
      problem("plan.listing-shards", listingShards, "must be between 0 (twice the cluster's listing streams) and 100000");
    }
    return problems.size() == before ? new PlanConfig(partSize, bundleSize, bundleObjects, copyCutoff, listingShards) : null;
  }

  private CopyConfig copy() {
    int before = problems.size();
    int streams = integer("copy.streams-per-task");
    int retries = integer("copy.retries");
    Duration backoff = duration("copy.backoff");
    Duration maxBackoff = duration("copy.max-backoff");
    Duration stall = duration("copy.stall-timeout");
    boolean skip = bool("copy.skip-unchanged");
    long buffer = bytes("copy.buffer-size");
    if (streams < 1 || streams > 256) problem("copy.streams-per-task", streams, "must be between 1 and 256");
    if (retries < 0 || retries > 100) problem("copy.retries", retries, "must be between 0 and 100");
    if (stall.compareTo(Duration.ofSeconds(1)) < 0) problem("copy.stall-timeout", stall, "must be at least 1s");
    if (buffer < 4096 || buffer > (64L << 20)) problem("copy.buffer-size", buffer, "must be between 4KiB and 64MiB");
    return problems.size() == before ? new CopyConfig(streams, retries, backoff, maxBackoff, stall, skip, (int) buffer) : null;
  }

  // ---- typed getters that turn wrong types into problems ----

  private String string(String key) {
    return get(key, Config::getString, "a string");
  }

  private boolean bool(String key) {
    return get(key, Config::getBoolean, "true or false");
  }

  private int integer(String key) {
    return get(key, Config::getInt, "a whole number");
  }

  private double number(String key) {
    return get(key, Config::getDouble, "a number");
  }

  private long bytes(String key) {
    return get(key, Config::getBytes, "a size such as 64MiB, 512KiB or 1GiB");
  }

  private Duration duration(String key) {
    return get(key, Config::getDuration, "a duration such as 200ms, 30s or 5m");
  }

  private List<String> stringList(String key) {
    return get(key, Config::getStringList, "a list of strings, e.g. [\"**/*.log\"]");
  }

  /** The constant named by the value (written in lower case with '-'), or null after recording the problem. */
  private <E extends Enum<E>> E enumValue(String key, Class<E> type) {
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

  /**
   * The value at {@code ferry.<key>}; a missing or mistyped one is recorded as a problem and validation goes on with
   * the default from reference.conf, so every problem of the file is reported at once.
   */
  private <T> T get(String key, java.util.function.BiFunction<Config, String, T> getter, String expected) {
    read.add(key);
    String path = ROOT + "." + key;
    try {
      return getter.apply(config, path);
    } catch (com.typesafe.config.ConfigException.Missing e) {
      problems.add("ferry." + key + " is missing: it must be " + expected);
    } catch (com.typesafe.config.ConfigException e) {
      problem(key, "", "is not " + expected);
    }
    return getter.apply(reference, path);
  }

  /** Adds "ferry.key = value (file: line) rule"; the value as written in the file where there is one. */
  private void problem(String key, Object value, String rule) {
    Object shown = value;
    if (config.hasPath(ROOT + "." + key)) shown = config.getValue(ROOT + "." + key).unwrapped();
    problems.add("ferry." + key + " = " + (secrets.contains(key) ? "****" : String.valueOf(shown)) + where(key) + " " + rule);
  }

  /** A value read as a {@link Secret}: its key is marked first, so no problem with it ever echoes the value. */
  private Secret secret(String key) {
    secrets.add(key);
    return new Secret(string(key));
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
