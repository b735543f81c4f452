package io.ferry.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code ferry.source}: where objects are copied from, and which of them. */
final class SourceSection {
  private SourceSection() {}

  /** The source, or null when a problem leaves none to build. */
  static SourceConfig read(Hocon h) {
    StoreConfig store = switch (Stores.kind(h, "source.type")) {
      case "file" -> Stores.directory(h, "source", "copy from", "/mnt/nfs/exports");
      case "s3" -> Stores.bucket(h, "source", "copy from", "media-archive", ObjectWrites.NONE);
      default -> null;
    };
    List<String> include = h.stringList("source.includes");
    List<String> exclude = h.stringList("source.excludes");
    long minSize = h.bytes("source.min-size");
    long maxSize = h.optionalBytes("source.max-size", Long.MAX_VALUE);
    if (minSize < 0) h.problem("source.min-size", minSize, "must not be negative");
    if (maxSize < minSize) h.problem("source.max-size", maxSize, "must be at least source.min-size (" + minSize + " bytes)");
    long after = h.instant("source.modified-after", Long.MIN_VALUE);
    long before = h.instant("source.modified-before", Long.MAX_VALUE);
    if (before < after) h.problem("source.modified-before", before, "must not be before source.modified-after");
    List<String> prefixes = prefixes(h);
    String manifest = manifest(h, store, prefixes);
    boolean manifestComplete = h.bool("source.manifest-complete");
    if (manifestComplete && manifest.isEmpty()) {
      h.problem("source.manifest-complete", true, "declares source.manifest a complete inventory, and no manifest is set");
    }
    store = shaped(h, store);
    ArchivedConfig archived = archived(h);
    if (archived != null && archived.policy() != ArchivedConfig.Policy.FAIL && !manifest.isEmpty() && !h.bool("source.manifest-check")) {
      h.problem("source.archived", archived.policy().word(), "needs to know which objects are archived, and a trusted manifest"
          + " (source.manifest-check = false) does not say: set manifest-check = true (a HEAD for each key), or archived = fail");
    }
    store = versions(h, store, manifest, archived);
    ChangesConfig changes = changes(h, store, manifest);
    if (store == null || maxSize < minSize || before < after || archived == null || changes == null) return null;
    return new SourceConfig(store, new Selection(prefixes, include, exclude, minSize, maxSize, after, before), manifest,
        h.bool("source.manifest-check"), manifestComplete, archived, changes);
  }

  /** {@code source.changes}, {@code source.events} and {@code source.inventory-diff}, or null after a problem. */
  private static ChangesConfig changes(Hocon h, StoreConfig store, String manifest) {
    String from = h.string("source.changes");
    List<String> files = h.stringList("source.events.files");
    String queue = h.string("source.events.queue");
    Duration wait = h.duration("source.events.wait");
    Duration hold = h.duration("source.events.hold");
    int max = h.integer("source.events.max-messages");
    String older = h.string("source.inventory-diff.older");
    String newer = h.string("source.inventory-diff.newer");
    if (!List.of("listing", "events", "inventory-diff").contains(from)) {
      h.problem("source.changes", from, "must be listing (both sides listed in full), events (a delta pass: the keys that S3 event"
          + " notifications name, looked up on both sides) or inventory-diff (the keys two S3 Inventory reports differ in)");
      return null;
    }
    if (!from.equals("events") && (!queue.isEmpty() || !files.isEmpty())) {
      h.problem("source.changes", from, "does not read events, and source.events names events to read: set source.changes = events to"
          + " run a delta pass from them, or remove source.events");
      return null;
    }
    if (!from.equals("inventory-diff") && (!older.isEmpty() || !newer.isEmpty())) {
      h.problem("source.changes", from, "does not compare inventories, and source.inventory-diff names two: set source.changes ="
          + " inventory-diff, or remove source.inventory-diff");
      return null;
    }
    if (from.equals("listing")) return ChangesConfig.LISTING;
    boolean ok = deltaSource(h, from, store, manifest);
    if (from.equals("inventory-diff")) {
      older = inventory(h, "source.inventory-diff.older", older);
      newer = inventory(h, "source.inventory-diff.newer", newer);
      if (!ok || older == null || newer == null) return null;
      return new ChangesConfig.InventoryDiff(older, newer);
    }
    List<String> paths = eventFiles(h, queue, files);
    ok &= paths != null;
    if (wait != null && (wait.toSeconds() < 1 || wait.toSeconds() > 20)) {
      h.problem("source.events.wait", wait, "must be between 1s and 20s (SQS waits in whole seconds, 20 at most; 0 would sample only"
          + " some of its servers)");
      ok = false;
    }
    if (hold != null && (hold.toSeconds() < 30 || hold.toHours() > 12)) {
      h.problem("source.events.hold", hold, "must be between 30s and 12h (SQS holds a message 12 hours at most)");
      ok = false;
    }
    if (max < 1) {
      h.problem("source.events.max-messages", max, "must be at least 1");
      ok = false;
    }
    if (!ok || wait == null || hold == null) return null;
    return queue.isEmpty() ? new ChangesConfig.EventFiles(paths) : new ChangesConfig.Queue(queue, wait, hold, max);
  }

  /** Whether the source can be copied by a delta pass, which looks its keys up one by one; each reason why not, a problem. */
  private static boolean deltaSource(Hocon h, String from, StoreConfig store, String manifest) {
    boolean ok = true;
    if (!(store instanceof BucketConfig b)) {
      h.problem("source.changes", from, "finds a bucket's changed keys: set source.type = s3, or changes = listing");
      ok = false;
    } else if (h.string("source.symlinks").equals("copy")) {
      h.problem("source.changes", from, "looks keys up one by one, and links kept as name.rclonelink are made links again only by a"
          + " listing: set source.symlinks = report, or changes = listing");
      ok = false;
    } else if (b.versions()) {
      h.problem("source.changes", from, "looks up each key's current version, and source.versions = all replays histories: set"
          + " versions = current, or changes = listing");
      ok = false;
    }
    if (!manifest.isEmpty()) {
      h.problem("source.changes", from, "takes its keys from the changes, and source.manifest names keys too: remove one of them");
      ok = false;
    }
    return ok;
  }

  /** An inventory's manifest.json: s3://, or a readable local file as its absolute path; null after a problem. */
  private static String inventory(Hocon h, String key, String location) {
    if (location.startsWith("s3://")) return location;
    if (location.isEmpty() || !Files.isReadable(Path.of(location)) || Files.isDirectory(Path.of(location))) {
      h.problem(key, location, "must name an S3 Inventory report's manifest.json, as s3://bucket/key or a readable file");
      return null;
    }
    return Path.of(location).toAbsolutePath().normalize().toString();
  }

  /** {@code source.manifest}: "" for none; a file's, its absolute path. */
  private static String manifest(Hocon h, StoreConfig store, List<String> prefixes) {
    String manifest = h.string("source.manifest");
    if (!manifest.isEmpty()) {
      if (!(store instanceof BucketConfig)) {
        h.problem("source.manifest", manifest, "lists objects of a bucket: set source.type = s3");
      } else if (!manifest.startsWith("s3://") && !Files.isReadable(Path.of(manifest))) {
        h.problem("source.manifest", manifest, "must be s3://bucket/key, or a readable file (an S3 Inventory manifest.json, or a key"
            + " list)");
      } else if (!manifest.startsWith("s3://")) {
        manifest = Path.of(manifest).toAbsolutePath().normalize().toString();
      }
      if (!prefixes.isEmpty()) h.problem("source.prefixes", prefixes,
          "cannot be combined with source.manifest, which lists the objects itself");
    }
    return manifest;
  }

  /** Where {@code source.events} reads from: the files as absolute paths (none for a queue), or null after a problem. */
  private static List<String> eventFiles(Hocon h, String queue, List<String> files) {
    if (queue.isEmpty() == files.isEmpty()) {
      String place = "source.events.queue = an SQS queue URL (https://sqs.<region>.amazonaws.com/<account>/<name>), or"
          + " source.events.files = [JSON-lines files of event notifications]";
      if (queue.isEmpty()) {
        h.problem("ferry.source.changes = events needs a place to read events from: set " + place);
      } else {
        h.problem("source.events.files", files, "cannot be combined with source.events.queue: a delta pass reads from one place, "
            + place);
      }
      return null;
    }
    if (!queue.isEmpty() && !queue.matches("(?i)https?://[^/@]+/.+")) {
      h.problem("source.events.queue", queue, "must be a queue URL such as https://sqs.us-east-1.amazonaws.com/123456789012/changes");
      return null;
    }
    List<String> paths = new ArrayList<>();
    for (String f : files) {
      Path p = Path.of(f).toAbsolutePath().normalize();
      if (!Files.isReadable(p) || Files.isDirectory(p)) {
        h.problem("source.events.files", f, "must be readable files of event notifications, one JSON document a line");
        return null;
      }
      paths.add(p.toString());
    }
    return paths;
  }

  /** What a source's links, empty folders and hard links become: {@code store} with them. */
  private static StoreConfig shaped(Hocon h, StoreConfig store) {
    String links = h.string("source.symlinks");
    if (!List.of("report", "follow", "copy").contains(links)) {
      h.problem("source.symlinks", links, "must be report (leave each symbolic link and report it), follow (copy the file a link"
          + " points to) or copy (copy each link as a link; into a bucket, as rclone keeps them: name.rclonelink holding the target)");
    } else if (store instanceof DirectoryConfig d) {
      store = d.withSymlinks(DirectoryConfig.Symlinks.valueOf(links.toUpperCase(Locale.ROOT)));
    }
    String folders = h.string("source.empty-directories");
    if (!List.of("skip", "copy").contains(folders)) {
      h.problem("source.empty-directories", folders, "must be skip (a directory's empty folders, a bucket's folder markers, are left)"
          + " or copy (made again: a folder in a directory, a marker 'name/' in a bucket)");
    } else if (folders.equals("copy") && store instanceof DirectoryConfig d) {
      store = d.withFolders(true);
    } else if (folders.equals("copy") && store instanceof BucketConfig b) {
      store = b.withFolders(true);
    }
    String hardLinks = h.string("source.hard-links");
    if (!List.of("separate", "keep").contains(hardLinks)) {
      h.problem("source.hard-links", hardLinks, "must be separate (each name of a file copied as a file of its own) or keep (its"
          + " other names made hard links to its copy, into a directory)");
    } else if (hardLinks.equals("keep") && store instanceof DirectoryConfig d) {
      store = d.withHardLinks(true);
    } else if (hardLinks.equals("keep")) {
      h.problem("source.hard-links", hardLinks, "keeps a directory's hard links, and the source is a bucket (which has none)");
    }
    return store;
  }

  /** {@code source.versions}: {@code store} listing every version where it is {@code all}. */
  private static StoreConfig versions(Hocon h, StoreConfig store, String manifest, ArchivedConfig archived) {
    String versions = h.string("source.versions");
    if (!List.of("current", "all").contains(versions)) {
      h.problem("source.versions", versions, "must be current (each key's current version) or all (every version, oldest first, and"
          + " the delete markers)");
    } else if (versions.equals("all")) {
      if (!(store instanceof BucketConfig b)) {
        h.problem("source.versions", versions, "lists the versions of a bucket's keys: set source.type = s3, or versions = current");
      } else if (!manifest.isEmpty()) {
        h.problem("source.versions", versions, "lists the bucket's versions itself, and a manifest names keys: remove source.manifest,"
            + " or set versions = current");
      } else if (archived != null && archived.policy() != ArchivedConfig.Policy.FAIL) {
        h.problem("source.versions", versions, "copies archived versions only as failures: set source.archived = fail, or versions ="
            + " current to skip or restore archived objects");
      } else {
        store = b.withVersions(true);
      }
    }
    return store;
  }

  /** {@code source.archived} and {@code source.restore}, or null after a problem. */
  private static ArchivedConfig archived(Hocon h) {
    String policy = h.string("source.archived");
    boolean ok = true;
    if (!List.of("fail", "skip", "restore").contains(policy)) {
      h.problem("source.archived", policy, "must be fail (each archived object fails the run), skip (each is reported and left) or"
          + " restore (each is restored, then copied)");
      ok = false;
    }
    String tier = h.string("source.restore.tier");
    String known = List.of("Expedited", "Standard", "Bulk").stream().filter(t -> t.equalsIgnoreCase(tier)).findFirst().orElse(null);
    if (known == null) {
      h.problem("source.restore.tier", tier, "must be Expedited, Standard or Bulk (S3's retrieval tiers)");
      ok = false;
    }
    int days = h.integer("source.restore.days");
    if (days < 1) {
      h.problem("source.restore.days", days, "must be at least 1: how many days a restored copy stays readable");
      ok = false;
    }
    Duration wait = h.duration("source.restore.wait");
    Duration poll = h.duration("source.restore.poll");
    if (wait != null && wait.isNegative()) {
      h.problem("source.restore.wait", wait, "must not be negative (0s: the run ends with its restores pending)");
      ok = false;
    }
    if (poll != null && (poll.isZero() || poll.isNegative())) {
      h.problem("source.restore.poll", poll, "must be more than 0s, e.g. 1m");
      ok = false;
    }
    if (!ok || wait == null || poll == null) return null;
    return new ArchivedConfig(ArchivedConfig.Policy.valueOf(policy.toUpperCase(Locale.ROOT)), known, days, wait, poll);
  }

  private static List<String> prefixes(Hocon h) {
    List<String> prefixes = new ArrayList<>();
    for (String p : h.stringList("source.prefixes")) {
      if (p.startsWith("/") || p.isBlank()) {
        h.problem("source.prefixes", p, "must be a folder under source.prefix (or source.path) such as \"2018/\", without a leading '/'");
      } else if (p.contains("..")) {
        h.problem("source.prefixes", p, "must not contain '..'");
      } else {
        prefixes.add(Stores.folder(p));
      }
    }
    return Stores.outermost(prefixes);
  }
}
