package io.ferry.report;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The versioned summary of a {@code ferry verify} run ({@code summary.json}, name "ferry-verify-summary", version 1):
 * how many objects compare how, the bytes read to compare them, the first differences, what both listings held and
 * what the rows hold, and with {@code --manifest} the completion manifest. Fields are only added within a version.
 *
 * @param listed what the listings of both sides found
 * @param compared what the rows hold of each side: equal to {@code listed} when every listed object has its row
 * @param manifest the completion manifest, null when not asked for
 */
public record VerifySummary(String name, int version, String job, String run, String source, String destination,
    String startedAt, double wallSeconds, Map<String, Long> objects, long bytesRead, List<Difference> differences, String reportPath,
    Sides listed, Sides compared, Manifest manifest) {
  public static final String NAME = "ferry-verify-summary";
  public static final int VERSION = 1;
  /** The differences the summary lists; the dataset holds them all. */
  public static final int DIFFERENCES = 100;
  /** What a comparison may find without a difference: extra objects are allowed, and an archived source is compared by size. */
  private static final Set<String> AGREEING = Set.of("MATCH", "EXTRA", "UNPROVEN");

  /** An object that does not match, and why. */
  public record Difference(String key, String status, String detail) implements Serializable {}

  /** Objects and bytes on each side. */
  public record Sides(long sourceObjects, long sourceBytes, long destinationObjects, long destinationBytes) implements Serializable {
    public static final Sides NONE = new Sides(0, 0, 0, 0);

    public Sides plus(Sides o) {
      return new Sides(sourceObjects + o.sourceObjects, sourceBytes + o.sourceBytes, destinationObjects + o.destinationObjects,
          destinationBytes + o.destinationBytes);
    }
  }

  /**
   * The completion manifest: {@code rows} rows ({@code path}, Parquet and CSV), {@code proven} of them source objects
   * proven equal by a checksum of each side, {@code duplicateKeys} rows whose key another row has, and the SHA-256 of
   * its CSV parts concatenated in name order.
   */
  public record Manifest(String path, long rows, long proven, long duplicateKeys, String sha256) {}

  /** What the rows hold, counted as they were written: by status, proven, bytes read, each side, keys met twice. */
  public record Tally(Map<String, Long> objects, long proven, long bytesRead, Sides rows, long duplicateKeys) implements Serializable {
    public Tally plus(Tally o) {
      Map<String, Long> both = new TreeMap<>(objects);
      o.objects.forEach((k, v) -> both.merge(k, v, Long::sum));
      return new Tally(both, proven + o.proven, bytesRead + o.bytesRead, rows.plus(o.rows), duplicateKeys + o.duplicateKeys);
    }
  }

  /** Every listed object of both sides has its row, and no row stands for an object the listings did not find. */
  public boolean reconciled() {
    return listed.equals(compared);
  }

  /** True when every source object is at the destination with the same bytes as far as verify can tell (extra objects are allowed). */
  public boolean matches() {
    return objects.entrySet().stream().noneMatch(e -> !AGREEING.contains(e.getKey()) && e.getValue() > 0);
  }

  /**
   * True when the manifest proves every selected source object equal by a checksum of each side, and reconciles with
   * the listings, one row a key; a source that lists nothing proves nothing (a prefix mistyped would look complete).
   */
  public boolean proven() {
    return manifest != null && reconciled() && manifest.duplicateKeys() == 0 && listed.sourceObjects() > 0
        && manifest.proven() == listed.sourceObjects();
  }

  /** What the command's exit code says: proven with {@code --manifest}, else matches. */
  public boolean passed() {
    return manifest != null ? proven() : matches();
  }
}
