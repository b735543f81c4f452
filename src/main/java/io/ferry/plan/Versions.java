package io.ferry.plan;

import io.ferry.store.ETags;
import io.ferry.store.StoreObject;
import java.io.Serializable;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every version of a key ({@code source.versions = all}), as a destination is to hold them: a directory holds each
 * at a name of its own; a bucket with versioning holds the key's history, written oldest first, so a rerun replays
 * only what follows the versions it holds already ({@link #replay}).
 */
public final class Versions {
  /** rclone's names of older versions ({@code --s3-versions}), so that rclone users find theirs where they look. */
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("'-v'yyyy-MM-dd-HHmmss-SSS").withZone(ZoneOffset.UTC);

  private Versions() {}

  /**
   * Where a version goes in a directory: the latest at the key's own path, each older one beside it with its time
   * before the extension ({@code a/b.txt} -> {@code a/b-v2024-01-31-120000-000.txt}); a delete marker nowhere (a key
   * whose latest version is one has no file).
   */
  public static Optional<StoreObject> inDirectory(StoreObject version) {
    if (version.isDeleteMarker()) return Optional.empty();
    if (version.age() == 0) return Optional.of(version);
    return Optional.of(version.at(olderName(version.relativeKey(), version.lastModifiedMillis())));
  }

  /**
   * A key's versions as a directory holds them ({@link #inDirectory(StoreObject)}), each at a name of its own: older
   * versions of one time (stores keep seconds) would share one, so all but the oldest of them get their version id
   * after the time ({@code a-v2024-01-31-120000-000-3HL4kqtJ.txt}): names that stay as versions come and go.
   */
  public static List<StoreObject> inDirectory(List<StoreObject> history) {
    List<StoreObject> oldestFirst = oldestFirst(history);
    Set<String> taken = new HashSet<>();
    List<StoreObject> out = new ArrayList<>();
    for (StoreObject v : oldestFirst) {
      Optional<StoreObject> placed = inDirectory(v);
      if (placed.isEmpty()) continue;
      out.add(taken.add(placed.get().relativeKey()) ? placed.get()
          : v.at(olderName(v.relativeKey(), v.lastModifiedMillis(), "-" + v.versionId().replaceAll("[^A-Za-z0-9._-]", "_"))));
    }
    return out;
  }

  /** {@code name} with the version's time before its extension, as rclone names an older version. */
  static String olderName(String name, long millis) {
    return olderName(name, millis, "");
  }

  private static String olderName(String name, long millis, String suffix) {
    int slash = name.lastIndexOf('/');
    int dot = name.lastIndexOf('.');
    // no extension: a dot that starts the name, or none after the last '/'
    int at = dot > slash + 1 ? dot : name.length();
    return name.substring(0, at) + STAMP.format(Instant.ofEpochMilli(millis)) + suffix + name.substring(at);
  }

  /**
   * What a rerun writes of one key's history into a bucket that keeps versions.
   *
   * @param toWrite the source's versions to write, oldest first: those after the last the destination holds
   * @param held how many of the source's versions the destination holds
   * @param conflict why nothing is written to the key (the destination's latest version is none of the source's), or
   *     null
   */
  public record Replay(List<StoreObject> toWrite, int held, String conflict) {}

  /**
   * What the ledger knows of a key's replays: the destination's versions they wrote, by version id, to the source's each
   * copies ({@code copies}); the source versions a replay was about to write and whose write it did not record
   * ({@code pending}).
   */
  public record Known(Map<String, String> copies, Set<String> pending) implements Serializable {
    public static final Known NONE = new Known(Map.of(), Set.of());
  }

  /**
   * One key's history replayed: the destination's versions are matched in order against the source's (a version the
   * source no longer holds, expired since, is passed over); what follows the source version its latest matches is to
   * be written, oldest first; markers that mark nothing are left out on both sides ({@link #marking}). A destination
   * version a replay wrote is the copy of the source version the ledger says it came from ({@code known}), whatever its
   * bytes. Any other is matched by its bytes: to the next source version where ETags show it is that one, or the ledger
   * shows it was being written (a copy whose record a kill lost), else to the one before it again (a write retried
   * after its answer was lost, which S3 keeps twice), else to the next one by its size, else, where its ETag tells it
   * apart, to one further on. A destination
   * whose latest version matches none of the source's was written by another hand: nothing is written to it, so that no
   * history is interleaved. Versions match by kind, size and, where both are the MD5 of the bytes, ETag (a copy made in
   * parts has an ETag of its own).
   *
   * @param source the source's versions of the key, in any order
   * @param destination the destination's, in any order
   * @param known the destination's versions replays wrote, by their version id, to the source version id each copied
   */
  public static Replay replay(List<StoreObject> source, List<StoreObject> destination, Known known) {
    List<StoreObject> from = marking(oldestFirst(source));
    List<StoreObject> to = marking(oldestFirst(destination));
    int nextAt = 0; // the first source version not yet matched
    int held = 0;
    for (StoreObject d : to) {
      String copied = known.copies().get(d.versionId());
      if (copied != null) {
        int at = -1;
        for (int i = Math.max(0, nextAt - 1); i < from.size() && at < 0; i++) if (from.get(i).versionId().equals(copied)) at = i;
        if (at >= nextAt) {
          nextAt = at + 1;
          held++;
        }
        continue; // the one before again (a retried write), or a source version gone since: nothing to match
      }
      // the next version's copy whose record a kill lost, where its ETag tells so or the ledger shows that version was
      // being written; else a copy known by its size alone is taken for a duplicate of the one before first: a version
      // written twice, never one skipped
      boolean next = nextAt < from.size() && matches(from.get(nextAt), d);
      boolean shown = next && (strong(d) && strong(from.get(nextAt)) || known.pending().contains(from.get(nextAt).versionId()));
      if (shown || next && !(nextAt > 0 && matches(from.get(nextAt - 1), d))) {
        nextAt++;
        held++;
        continue;
      }
      if (nextAt > 0 && matches(from.get(nextAt - 1), d)) continue;
      int at = -1;
      // only a version its ETag tells apart may be found past others: a marker, or a copy known by its size alone,
      // matches the next version only (another writer's delete must not stand for versions it would pass over)
      for (int i = nextAt + 1; strong(d) && i < from.size(); i++) {
        if (matches(from.get(i), d)) {
          at = i;
          break;
        }
      }
      if (at >= 0) {
        nextAt = at + 1;
        held++;
      } else if (d == to.get(to.size() - 1)) {
        return new Replay(List.of(), held, "the destination's latest version of the key (" + describe(d) + ") is none of the"
            + " source's versions after those it holds: another writer's; nothing is written to the key, so that its history is"
            + " not interleaved");
      }
    }
    return new Replay(List.copyOf(from.subList(nextAt, from.size())), held, null);
  }

  /** Oldest first: by age where a listing gave it, newest ages last. */
  static List<StoreObject> oldestFirst(List<StoreObject> versions) {
    List<StoreObject> sorted = new ArrayList<>(versions);
    sorted.sort(Comparator.comparingInt(StoreObject::age).reversed());
    return sorted;
  }

  /**
   * A history without the delete markers that mark nothing: one over no version, or over another marker (the key is
   * deleted either way; a store may answer such a delete without making a marker).
   */
  static List<StoreObject> marking(List<StoreObject> oldestFirst) {
    List<StoreObject> out = new ArrayList<>();
    for (StoreObject v : oldestFirst) {
      if (v.isDeleteMarker() && (out.isEmpty() || out.get(out.size() - 1).isDeleteMarker())) continue;
      out.add(v);
    }
    return out;
  }

  /** Whether a copy is told from other versions by its ETag (the MD5 of its bytes), not only by its kind and size. */
  private static boolean strong(StoreObject copy) {
    return !copy.isDeleteMarker() && ETags.isMd5(copy.etag());
  }

  static boolean matches(StoreObject source, StoreObject copy) {
    if (source.isDeleteMarker() || copy.isDeleteMarker()) return source.isDeleteMarker() && copy.isDeleteMarker();
    if (source.size() != copy.size()) return false;
    boolean bothMd5 = ETags.isMd5(source.etag()) && ETags.isMd5(copy.etag());
    return !bothMd5 || source.etag().equals(copy.etag());
  }

  private static String describe(StoreObject v) {
    return v.isDeleteMarker() ? "a delete marker" : v.size() + " bytes, ETag " + v.etag();
  }
}
