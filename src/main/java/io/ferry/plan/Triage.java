package io.ferry.plan;

import io.ferry.config.ArchivedConfig;
import io.ferry.store.Capabilities;
import io.ferry.store.Destination;
import io.ferry.store.KeyOrder;
import io.ferry.store.StoreObject;
import io.ferry.store.listing.ObjectFilter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Decides, key by key, between copying an object and leaving it. The listings are joined by key: each source object
 * and each destination object gives its {@link #sides}, the sides of a key are merged ({@link Keyed#merge}), and the
 * merged key is decided ({@link #decide}). A key the destination cannot hold (its own rule: an unsafe path, a key too
 * long) is rejected, and so, where keys are paths ({@link Capabilities#hierarchicalKeys()}), is a key that is also a
 * folder of other keys ("a" beside "a/b"), which a filesystem cannot hold both of, and every key of a set that folds
 * to one on a destination that folds case; an object the destination holds unchanged is skipped; one archived at the
 * source goes as {@code source.archived} says; one only the destination holds is extraneous.
 */
public final class Triage {
  private Triage() {}

  /** A source object's sides of the join: itself at its key and, where keys are paths, a folder mark at each folder. */
  public static List<Map.Entry<String, Keyed>> sides(StoreObject source, boolean hierarchical, boolean foldsCase) {
    List<Map.Entry<String, Keyed>> sides = new ArrayList<>(2);
    sides.add(Map.entry(KeyOrder.joinKey(source.relativeKey(), foldsCase), Keyed.source(source)));
    if (hierarchical) {
      for (String folder : folders(source.relativeKey())) sides.add(Map.entry(KeyOrder.joinKey(folder, foldsCase), Keyed.folderMark()));
    }
    return sides;
  }

  /** A destination object's side of the join. */
  public static Map.Entry<String, Keyed> side(StoreObject existing, boolean foldsCase) {
    return Map.entry(KeyOrder.joinKey(existing.relativeKey(), foldsCase), Keyed.existing(existing));
  }

  /**
   * The time a destination gives a copy where the source tells one of its own (rclone's {@code mtime} metadata, which a
   * directory restores): asked only where the sizes agree and the listed times do not, so that skip-unchanged compares
   * the time the copy was given.
   */
  @FunctionalInterface
  public interface Restamp {
    Restamp NONE = source -> source;

    /** The source object with the time its copy gets, or as it is; a request to the source where it must be read. */
    StoreObject restored(StoreObject source) throws IOException;
  }

  /**
   * What the run does at one merged key: nothing for a folder only or an object the job does not select, else a
   * decision for each source object there (several only where keys fold to one).
   *
   * @param rules the destination, for its rules (rejection, unchanged); nothing is written
   * @param archived what becomes of an object archived at the source that the destination does not hold unchanged
   * @param restamp the time a copy of the source gets where it differs from the listed one ({@link Restamp})
   */
  public static List<Decision> decide(Keyed k, boolean hierarchical, Destination rules, ObjectFilter filter, boolean skipUnchanged,
      ArchivedConfig.Policy archived, Restamp restamp) {
    if (!k.colliding().isEmpty()) {
      List<StoreObject> all = new ArrayList<>(k.colliding());
      all.add(0, k.source());
      List<Decision> rejected = new ArrayList<>(all.size());
      for (StoreObject o : all) {
        String others = all.stream().filter(x -> x != o).map(StoreObject::relativeKey).collect(Collectors.joining("', '"));
        rejected.add(new Decision(Decision.Kind.REJECTED, o, all.stream().anyMatch(StoreObject::isVersion)
            ? "an older version's name here is also another key's ('" + others + "'): none of them was copied"
            : "the key differs from '" + others + "' only in case, and the destination folds case (they would be one file): none of"
            + " them was copied"));
      }
      return rejected;
    }
    StoreObject source = k.source();
    if (source == null) {
      // a folder only the destination holds is never extraneous: the files in it are objects of their own
      return k.existing() != null && !k.existing().isFolder() && filter.selectsKey(k.existing())
          ? List.of(Decision.of(Decision.Kind.EXTRANEOUS, k.existing())) : List.of();
    }
    if (source.isUndecodable()) {
      return List.of(new Decision(Decision.Kind.REJECTED, source, "the file's name is not UTF-8 (its bytes are shown, as ls -b shows"
          + " them): no key can name it, so it was not copied; rename it to UTF-8 (convmv -f latin1 -t utf8, say) and run again"));
    }
    if (source.isLink()) {
      return List.of(new Decision(Decision.Kind.NOT_COPIED, source, "a symbolic link to '" + source.linkTarget() + "': not copied"
          + " (source.symlinks = copy copies it as a link; follow copies a link to a file as that file)"));
    }
    if (!filter.inRanges(source)) return List.of(Decision.of(Decision.Kind.FILTERED, source));
    String reason = rules.rejection(source);
    if (reason == null && hierarchical && k.folder()) {
      reason = "the key is also a prefix of other keys ('" + source.relativeKey() + "/...'): a filesystem cannot hold a file and a"
          + " directory of one name, so this object was not copied (the keys under it were)";
    }
    if (reason != null) return List.of(new Decision(Decision.Kind.REJECTED, source, reason));
    if (skipUnchanged && k.existing() != null && unchanged(source, k.existing(), rules, restamp)) {
      return List.of(Decision.of(Decision.Kind.UNCHANGED, source));
    }
    if (source.isArchived()) return List.of(archived(source, archived));
    return List.of(Decision.of(Decision.Kind.COPY, source));
  }

  /**
   * The decisions with every key rejected that another source key of them would be one file with at the destination
   * (they differ only in case, in a folder that folds case: {@link Destination#oneFile}), whatever was decided of it:
   * neither may be written, or one's bytes would stand under the other's name.
   *
   * @param decisions of every key that folds to one another's (a partition of keys joined by their case folded)
   */
  public static List<Decision> oneFileApart(List<Decision> decisions, Destination rules) throws IOException {
    Map<String, List<Integer>> byFolded = new HashMap<>();
    for (int i = 0; i < decisions.size(); i++) {
      Decision d = decisions.get(i);
      if (d.kind() == Decision.Kind.FILTERED || d.kind() == Decision.Kind.EXTRANEOUS) continue;
      byFolded.computeIfAbsent(KeyOrder.joinKey(d.object().relativeKey(), true), k -> new ArrayList<>()).add(i);
    }
    List<Decision> out = new ArrayList<>(decisions);
    for (List<Integer> group : byFolded.values()) {
      if (group.size() < 2) continue;
      List<StoreObject> all = group.stream().map(i -> decisions.get(i).object()).toList();
      for (int i : group) {
        StoreObject o = decisions.get(i).object();
        List<String> same = new ArrayList<>();
        for (StoreObject other : all) {
          if (!other.relativeKey().equals(o.relativeKey()) && rules.oneFile(o.relativeKey(), other.relativeKey())) {
            same.add(other.relativeKey());
          }
        }
        if (!same.isEmpty()) {
          out.set(i, new Decision(Decision.Kind.REJECTED, o, "the key differs from '" + String.join("', '", same) + "' only in case,"
              + " and the destination's folder there folds case (they would be one file): none of them was copied"));
        }
      }
    }
    return out;
  }

  private static boolean unchanged(StoreObject source, StoreObject existing, Destination rules, Restamp restamp) {
    if (rules.unchanged(source, existing)) return true;
    if (existing.size() != source.size() || existing.lastModifiedMillis() == source.lastModifiedMillis()) return false;
    try {
      StoreObject restored = restamp.restored(source);
      return restored != source && rules.unchanged(restored, existing);
    } catch (IOException e) {
      return false; // copied again: the safe side
    }
  }

  /**
   * An archived object the destination does not hold unchanged (one it holds is skipped first, so a restored copy that
   * expired after its object was copied is never restored again).
   */
  private static Decision archived(StoreObject source, ArchivedConfig.Policy policy) {
    String state = "archived at the source (" + source.archiveClass() + ")" + (source.restoring() ? ", its restore under way" : "");
    return switch (policy) {
      case FAIL -> new Decision(Decision.Kind.ARCHIVED, source, state + ": not copied, and no request sent for it (source.archived ="
          + " restore restores it, then copies it; skip leaves it)");
      case SKIP -> new Decision(Decision.Kind.NOT_COPIED, source, state + ": not copied (source.archived = skip)");
      case RESTORE -> new Decision(Decision.Kind.RESTORE, source, state);
    };
  }

  /** The folders a key is in: "a/b/c" is in "a" and "a/b". */
  static List<String> folders(String relativeKey) {
    List<String> folders = new ArrayList<>();
    for (int slash = relativeKey.indexOf('/'); slash >= 0; slash = relativeKey.indexOf('/', slash + 1)) {
      folders.add(relativeKey.substring(0, slash));
    }
    return folders;
  }
}
