package io.ferry.config;

import java.nio.file.Path;
import java.util.List;

/** The rules across sections: what the source, the destination, the cut-over's aside and the reports must keep apart. */
final class Overlaps {
  private Overlaps() {}

  /** The source and destination's rules together (both could be built). */
  static void check(Hocon h, SourceConfig source, DestinationConfig destination) {
    apart(h, source, destination);
    cutOverRules(h, source, destination);
  }

  /**
   * The source and the destination must not overlap (one directory inside the other; one bucket of one endpoint with
   * one prefix inside the other): a copy would list its own output, and a cut-over pass would take the source's
   * objects, seen through the destination, for extraneous ones.
   */
  private static void apart(Hocon h, SourceConfig source, DestinationConfig destination) {
    String overlap = overlap(source.store(), destination.store());
    if (overlap != null) {
      h.problem(destination.store() instanceof DirectoryConfig ? "destination.path" : "destination.prefix",
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
  static void reportsApart(Hocon h, String reportPath, SourceConfig source, DestinationConfig destination) {
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
      Path reports = Path.of(reportPath.startsWith("file:") ? reportPath.substring(5) : reportPath).toAbsolutePath().normalize();
      for (StoreConfig store : List.of(destination.store(), source.store())) {
        if (store instanceof DirectoryConfig d && reports.startsWith(Path.of(d.path()))) {
          where = (store == destination.store() ? "the destination " : "the source ") + d.path();
        }
      }
    }
    if (where != null) {
      h.problem("report.path", reportPath, "lies inside " + where
          + ": the job's reports and ledger must be kept apart from what it copies");
    }
  }

  /**
   * The cut-over pass deletes what the source's listing lacks, so it needs a listing of every object the selection
   * takes: a manifest only when declared a complete inventory; and it moves objects aside only to a place outside
   * the destination.
   */
  private static void cutOverRules(Hocon h, SourceConfig source, DestinationConfig destination) {
    CutOver cut = destination.cutOver();
    if (cut.enabled() && !source.manifest().isEmpty() && !source.manifestComplete()) {
      h.problem("ferry.destination.delete-extraneous = true" + h.where("destination.delete-extraneous") + " with ferry.source.manifest"
          + " would delete every object the manifest does not name: a manifest names some objects, not all the source holds."
          + " If it is a complete, current inventory of the source (an S3 Inventory report of the whole selection), set"
          + " ferry.source.manifest-complete = true; otherwise run the cut-over pass from a listing (leave source.manifest empty)");
    }
    if (!cut.moves()) return;
    StoreConfig aside = destination.store() instanceof BucketConfig b ? new BucketConfig(b.endpoint(), b.bucket(), cut.moveTo())
        : DirectoryConfig.of(cut.moveTo());
    String overlap = overlap(source.store(), aside);
    if (overlap != null) h.problem("destination.delete-to", cut.moveTo(), "overlaps the source (" + overlap + "): it must lie outside it");
    if (destination.store() instanceof DirectoryConfig directory) {
      Path to = Path.of(cut.moveTo()), root = Path.of(directory.path());
      if (to.startsWith(root) || root.startsWith(to)) {
        h.problem("destination.delete-to", cut.moveTo(), "must be a directory outside ferry.destination.path (" + root
            + ") and not above it: objects moved inside the destination would be taken for objects of it");
      }
    } else if (destination.store() instanceof BucketConfig bucket) {
      if (bucket.prefix().isEmpty()) {
        h.problem("destination.delete-to", cut.moveTo(), "needs ferry.destination.prefix: with no prefix every key of bucket "
            + bucket.bucket() + " is the destination's, and objects moved aside would be taken for objects of it");
      } else if (cut.moveTo().startsWith(bucket.prefix()) || bucket.prefix().startsWith(cut.moveTo())) {
        h.problem("destination.delete-to", cut.moveTo(), "must be a key prefix of bucket " + bucket.bucket()
            + " outside ferry.destination.prefix (" + bucket.prefix() + ") and not above it");
      }
    }
  }
}
