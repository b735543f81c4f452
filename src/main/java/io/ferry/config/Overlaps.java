package io.ferry.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules across sections: what the source, the destination, the cut-over's aside and the reports must keep apart.
 * Directories are compared as the filesystem resolves them ({@link #real}), never as written: a destination reached
 * through a link into the source is the source. Checked when the job file is read, and again by the driver before its
 * first write and before its delete pass ({@link #recheck}), since links may change in between.
 */
public final class Overlaps {
  private Overlaps() {}

  /** A rule broken: the key, its value as the job has it, and the rule. */
  record Problem(String key, String value, String rule) {}

  /** The source and destination's rules together (both could be built). */
  static void check(Hocon h, SourceConfig source, DestinationConfig destination) {
    for (Problem p : apart(source, destination)) h.problem(p.key(), p.value(), p.rule());
    manifestCutOver(h, source, destination);
  }

  /** Reports and the ledger inside the destination would be the cut-over pass's to delete; inside the source, written into it. */
  static void reportsApart(Hocon h, String reportPath, SourceConfig source, DestinationConfig destination) {
    Problem p = reports(reportPath, source, destination);
    if (p != null) h.problem(p.key(), p.value(), p.rule());
  }

  /**
   * Every rule again, on the paths as they resolve now: the driver's check before its first write and before its delete
   * pass (a link made or changed since the job file was read).
   *
   * @throws ConfigException naming each overlap with both real paths
   */
  public static void recheck(MigrationConfig config) {
    List<Problem> problems = new ArrayList<>(apart(config.source(), config.destination()));
    Problem reports = reports(config.reportPath(), config.source(), config.destination());
    if (reports != null) problems.add(reports);
    if (!problems.isEmpty()) {
      throw new ConfigException(problems.stream().map(p -> "ferry." + p.key() + " = " + p.value() + " " + p.rule()).toList());
    }
  }

  /**
   * A path as the filesystem resolves it: the real path of its deepest existing ancestor (every link on the way
   * followed), with the rest, which does not exist yet and so holds no link, after it.
   */
  static Path real(String path) {
    Path p = Path.of(path).toAbsolutePath();
    for (Path at = p; at != null; at = at.getParent()) {
      if (!Files.exists(at)) continue;
      try {
        return at.toRealPath().resolve(at.relativize(p)).normalize();
      } catch (IOException e) {
        break; // unreadable on the way: the path as written is all there is to compare
      }
    }
    return p.normalize();
  }

  /**
   * The source and the destination must not overlap (one directory inside the other; one bucket of one endpoint with
   * one prefix inside the other): a copy would list its own output and write into its source, and a cut-over pass would
   * take the source's objects, seen through the destination, for extraneous ones. Where deleted objects are moved to
   * must lie outside both.
   */
  private static List<Problem> apart(SourceConfig source, DestinationConfig destination) {
    List<Problem> problems = new ArrayList<>();
    String overlap = overlap(source.store(), destination.store());
    if (overlap != null) {
      problems.add(new Problem(destination.store() instanceof DirectoryConfig ? "destination.path" : "destination.prefix",
          destination.store() instanceof DirectoryConfig d ? d.path() : ((BucketConfig) destination.store()).prefix(),
          "overlaps the source (" + overlap + "): the destination must lie outside the source, and the source outside it"));
    }
    CutOver cut = destination.cutOver();
    if (!cut.moves()) return problems;
    StoreConfig aside = destination.store() instanceof BucketConfig b ? new BucketConfig(b.endpoint(), b.bucket(), cut.moveTo())
        : DirectoryConfig.of(cut.moveTo());
    String fromSource = overlap(source.store(), aside);
    if (fromSource != null) {
      problems.add(new Problem("destination.delete-to", cut.moveTo(), "overlaps the source (" + fromSource + "): it must lie outside it"));
    }
    if (destination.store() instanceof DirectoryConfig directory) {
      Path to = real(cut.moveTo()), root = real(directory.path());
      if (to.startsWith(root) || root.startsWith(to)) {
        problems.add(new Problem("destination.delete-to", cut.moveTo(), "must be a directory outside ferry.destination.path (" + root
            + (to.toString().equals(cut.moveTo()) ? "" : ", and it is " + to) + ") and not above it: objects moved inside the"
            + " destination would be taken for objects of it"));
      }
    } else if (destination.store() instanceof BucketConfig bucket) {
      if (bucket.prefix().isEmpty()) {
        problems.add(new Problem("destination.delete-to", cut.moveTo(), "needs ferry.destination.prefix: with no prefix every key of"
            + " bucket " + bucket.bucket() + " is the destination's, and objects moved aside would be taken for objects of it"));
      } else if (cut.moveTo().startsWith(bucket.prefix()) || bucket.prefix().startsWith(cut.moveTo())) {
        problems.add(new Problem("destination.delete-to", cut.moveTo(), "must be a key prefix of bucket " + bucket.bucket()
            + " outside ferry.destination.prefix (" + bucket.prefix() + ") and not above it"));
      }
    }
    return problems;
  }

  /** How two stores overlap, or null when they are apart; directories by their real paths. */
  private static String overlap(StoreConfig a, StoreConfig b) {
    if (a instanceof DirectoryConfig x && b instanceof DirectoryConfig y) {
      Path p = real(x.path()), q = real(y.path());
      return p.startsWith(q) || q.startsWith(p) ? p + " and " + q : null;
    }
    if (a instanceof BucketConfig x && b instanceof BucketConfig y && x.endpoint().sameEndpointAs(y.endpoint())
        && x.bucket().equals(y.bucket())
        && (x.prefix().startsWith(y.prefix()) || y.prefix().startsWith(x.prefix()))) {
      return "s3://" + x.bucket() + "/" + x.prefix() + " and s3://" + y.bucket() + "/" + y.prefix();
    }
    return null;
  }

  /** The reports and the ledger must lie outside the destination (the cut-over would delete them) and the source. */
  private static Problem reports(String reportPath, SourceConfig source, DestinationConfig destination) {
    String where = null;
    if (reportPath.startsWith("s3a://")) {
      String rest = reportPath.substring("s3a://".length());
      String bucket = rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : rest;
      String prefix = Stores.folder(rest.contains("/") ? rest.substring(rest.indexOf('/') + 1) : "");
      if (destination.store() instanceof BucketConfig b && b.bucket().equals(bucket)
          && (prefix.startsWith(b.prefix()) || b.prefix().startsWith(prefix))) {
        where = "the destination s3://" + b.bucket() + "/" + b.prefix();
      }
    } else if (!reportPath.contains("://")) {
      Path reports = real(reportPath.startsWith("file:") ? reportPath.substring(5) : reportPath);
      for (StoreConfig store : List.of(destination.store(), source.store())) {
        if (store instanceof DirectoryConfig d && reports.startsWith(real(d.path()))) {
          where = (store == destination.store() ? "the destination " : "the source ") + real(d.path());
        }
      }
    }
    return where == null ? null : new Problem("report.path", reportPath, "lies inside " + where
        + ": the job's reports and ledger must be kept apart from what it copies");
  }

  /**
   * The cut-over pass deletes what the source's listing lacks, so it needs a listing of every object the selection
   * takes: a manifest only when declared a complete inventory.
   */
  private static void manifestCutOver(Hocon h, SourceConfig source, DestinationConfig destination) {
    CutOver cut = destination.cutOver();
    if (cut.enabled() && !source.manifest().isEmpty() && !source.manifestComplete()) {
      h.problem("ferry.destination.delete-extraneous = true" + h.where("destination.delete-extraneous") + " with ferry.source.manifest"
          + " would delete every object the manifest does not name: a manifest names some objects, not all the source holds."
          + " If it is a complete, current inventory of the source (an S3 Inventory report of the whole selection), set"
          + " ferry.source.manifest-complete = true; otherwise run the cut-over pass from a listing (leave source.manifest empty)");
    }
  }
}
