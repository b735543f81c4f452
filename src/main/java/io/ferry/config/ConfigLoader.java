package io.ferry.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException.UnresolvedSubstitution;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a job file (HOCON) plus {@code -Dferry.key=value} overrides into one validated {@link MigrationConfig}: the
 * values are read typed ({@link Hocon}), each section by its own validator ({@link SourceSection},
 * {@link DestinationSection}, {@link PlanSection}, {@link CopySection}, the small ones here), then the rules across
 * them ({@link Overlaps}).
 *
 * <p>Defaults live only in {@code reference.conf}. Every problem is collected (not just the first) and names the
 * key, the value found and what is allowed; an unknown key gets the nearest known one as a suggestion. Secret
 * values are never echoed.
 */
public final class ConfigLoader {
  private ConfigLoader() {}

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
    Hocon h = hocon(user, overrides);
    MigrationConfig config = validate(h);
    if (!h.problems().isEmpty()) throw new ConfigException(h.problems());
    return config;
  }

  /** The keys (below {@code ferry.}) validating {@code user} reads, valid or not: for the mapping test. */
  static Set<String> keysRead(Config user) {
    Hocon h = hocon(user, Map.of());
    validate(h);
    return h.keysRead();
  }

  private static Hocon hocon(Config user, Map<String, String> overrides) {
    Config reference = ConfigFactory.defaultReference(ConfigLoader.class.getClassLoader());
    try {
      return new Hocon(ConfigFactory.parseMap(overrides, "command line (-D)").withFallback(user).withFallback(reference).resolve(),
          reference);
    } catch (com.typesafe.config.ConfigException e) {
      boolean unresolved = e instanceof UnresolvedSubstitution;
      throw new ConfigException(List.of(e.getMessage() + (unresolved ? " (for an optional environment variable write ${?NAME})" : "")));
    }
  }

  /** Every section read and checked; the config built from them, or null when {@code h} has a problem. */
  private static MigrationConfig validate(Hocon h) {
    h.checkUnknownKeys();
    String jobName = jobName(h);
    SourceConfig source = SourceSection.read(h);
    DestinationConfig destination = DestinationSection.read(h, h.string("source.type").equals("s3"));
    if (source != null && destination != null) {
      Sides sides = together(h, new Sides(source, destination));
      source = sides.source();
      destination = sides.destination();
    }
    PlanConfig plan = PlanSection.read(h, destination);
    CopyConfig copy = CopySection.read(h);
    ReportConfig report = report(h);
    if (destination != null && source != null && !report.path().isBlank()) Overlaps.reportsApart(h, report.path(), source, destination);
    EstimateConfig estimate = estimate(h);
    LimitsConfig limits = limits(h);
    String master = h.string("spark.master");
    return h.problems().isEmpty() ? new MigrationConfig(jobName, source, destination, plan, copy, report, estimate, limits, master) : null;
  }

  /** A job's source and destination, as each other's settings leave them. */
  private record Sides(SourceConfig source, DestinationConfig destination) {}

  /** The checks and settings that take both sides: problems into {@code h}, the sides as they are to be run. */
  private static Sides together(Hocon h, Sides sides) {
    SourceConfig source = sides.source();
    DestinationConfig destination = sides.destination();
    Overlaps.check(h, source, destination);
    if (source.store() instanceof BucketConfig b && b.versions()) {
      // into a bucket, its histories are listed too: a rerun replays only the versions it does not hold
      if (destination.store() instanceof BucketConfig d) {
        destination = new DestinationConfig(d.withVersions(true), destination.serverSideCopy(), destination.cutOver());
      }
      if (destination.cutOver().enabled()) {
        h.problem("destination.delete-extraneous", true, "deletes what the source no longer holds, which source.versions = all does"
            + " not tell apart from older versions: run the cut-over with versions = current");
      }
    }
    if (source.store() instanceof BucketConfig from
        && destination.store() instanceof BucketConfig to && to.writes().keepsStorageClass()) {
      // the source's class names are its service's: the destination's nearest class is written
      destination = new DestinationConfig(to.withWrites(to.writes().withClassesFrom(Provider.of(from.endpoint().endpoint()))),
          destination.serverSideCopy(), destination.cutOver());
    }
    if (source.store() instanceof DirectoryConfig d && d.hardLinks()
        && !(destination.store() instanceof DirectoryConfig)) {
      h.problem("source.hard-links", "keep", "makes a file's other names hard links at a directory destination, and this one is a"
          + " bucket (which holds each name as an object of its own): set hard-links = separate");
    }
    boolean folders = source.store() instanceof DirectoryConfig d && d.folders() || source.store() instanceof BucketConfig b && b.folders();
    if (folders) {
      // the destination's folders are listed too, so that a rerun finds those it made
      StoreConfig to = destination.store() instanceof DirectoryConfig d ? d.withFolders(true)
          : destination.store() instanceof BucketConfig b ? b.withFolders(true) : destination.store();
      destination = new DestinationConfig(to, destination.serverSideCopy(), destination.cutOver());
    }
    if (!(source.store() instanceof BucketConfig)
        && destination.store() instanceof BucketConfig to && to.writes().copiesAcl()) {
      h.problem("destination.acl", ObjectWrites.COPY, "copies each object's ACL from a bucket, and the source is a directory: set"
          + " a canned ACL (or none)");
    }
    if (source.store() instanceof DirectoryConfig d
        && d.symlinks() == DirectoryConfig.Symlinks.COPY) {
      if (destination.store() instanceof DirectoryConfig to) {
        // the destination's listing lists its links too: a rerun compares them, verify reads them, the cut-over sees them
        destination = new DestinationConfig(to.withSymlinks(DirectoryConfig.Symlinks.COPY), destination.serverSideCopy(),
            destination.cutOver());
      } else {
        source = source.withStore(d.withSymlinks(DirectoryConfig.Symlinks.COPY_AS_FILES));
      }
    }
    if (source.store() instanceof BucketConfig b && h.string("source.symlinks").equals("copy")
        && destination.store() instanceof DirectoryConfig to) {
      // rclone's links kept in a bucket (name.rclonelink) made links again; the destination's listing lists its links
      source = source.withStore(b.withLinks(true));
      destination = new DestinationConfig(to.withSymlinks(DirectoryConfig.Symlinks.COPY), destination.serverSideCopy(),
          destination.cutOver());
    }
    return new Sides(source, destination);
  }

  private static String jobName(Hocon h) {
    String jobName = h.string("job.name");
    if (jobName.isBlank() || !jobName.matches("[A-Za-z0-9._-]+")) {
      h.problem("job.name", jobName, "must be a non-empty name of letters, digits, '.', '_' or '-' (it names the report folder)");
    } else if (jobName.matches(".*\\.[0-9a-f]{12}")) {
      h.problem("job.name", jobName, "must not end in '.' and 12 hex digits: temp files name their opening so, and another job's would"
          + " be taken for this one's");
    }
    return jobName;
  }

  private static ReportConfig report(Hocon h) {
    String path = h.string("report.path");
    if (path.isBlank()) h.problem("report.path", path, "must be a local path or s3a://bucket/prefix");
    Duration progress = h.duration("report.progress-interval");
    if (progress.toMillis() < 100) h.problem("report.progress-interval", progress, "must be at least 100ms (5s is a good start)");
    return new ReportConfig(path, progress, h.bool("report.json-lines"));
  }

  private static EstimateConfig estimate(Hocon h) {
    double rate = h.number("estimate.mb-per-s");
    if (rate < 0) h.problem("estimate.mb-per-s", rate, "must not be negative (0: the rate of this job's last run)");
    return new EstimateConfig(prices(h, "estimate.source"), prices(h, "estimate.destination"), Math.max(0, rate));
  }

  private static EstimateConfig.Prices prices(Hocon h, String key) {
    return new EstimateConfig.Prices(price(h, key + ".write-per-1000"), price(h, key + ".read-per-1000"), price(h, key + ".egress-per-gb"));
  }

  private static double price(Hocon h, String key) {
    double value = h.number(key);
    if (value < 0) h.problem(key, value, "must not be negative (USD; 0 where nothing is billed)");
    return Math.max(0, value);
  }

  private static LimitsConfig limits(Hocon h) {
    long bandwidth = h.bytes("limits.bandwidth");
    double requestRate = h.number("limits.requests-per-second");
    if (bandwidth < 0) h.problem("limits.bandwidth", bandwidth,
        "must not be negative (bytes per second for the whole job, e.g. 200MiB; 0: none)");
    if (requestRate < 0) h.problem("limits.requests-per-second", requestRate,
        "must not be negative (per endpoint, for the whole job; 0: none)");
    return new LimitsConfig(bandwidth, requestRate, h.bool("limits.prefix-rates"));
  }
}
