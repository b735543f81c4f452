package io.ferry.invariants;

import io.ferry.invariants.Scenario.DestinationKind;
import io.ferry.invariants.Scenario.Item;
import io.ferry.invariants.Scenario.Job;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a run must do, worked out from the scenario alone, without Ferry's code: which keys the job selects, which a
 * directory cannot hold, which it cannot reach, whether the cut-over pass deletes and what, the exit code of a run
 * without faults. And the invariants every run keeps, checked on snapshots taken before and after it (key to
 * SHA-256; "link:" for a symbolic link).
 */
final class Oracle {
  private final Scenario scenario;
  /** Whether the destination's {@code dir/} folds case (a mount the stage made). */
  private final boolean folds;

  Oracle(Scenario scenario) {
    this(scenario, false);
  }

  Oracle(Scenario scenario, boolean folds) {
    this.scenario = scenario;
    this.folds = folds;
  }

  /** The source's contents as a run finds them: relative key → item (its size, time, bytes' seed). */
  record Source(Map<String, Item> items, Map<String, String> digests) {}

  /** What the run before the next must leave, for a run with no faults. */
  record Expected(int exit, Set<String> selected, Set<String> rejected, Set<String> unreachable, Set<String> deleted,
      boolean cutOverRuns) {}

  /**
   * Whether the job file is one Ferry refuses (exit 2): a cut-over from a manifest not declared complete; a destination
   * reached through a link into the source, a delete-to through one into the destination.
   */
  boolean refusedConfig(Job job) {
    return job.deleteExtraneous() && job.manifest() != null && !job.manifest().complete() || scenario.paths().refused()
        && (scenario.paths().destination() == Scenario.Via.INTO_SOURCE || job.deleteTo());
  }

  /**
   * The keys the job's listing takes (folders, globs; from a manifest, the keys it names that the source holds),
   * before sizes and times.
   */
  Set<String> listed(Job job, Source source) {
    Set<String> keys = new TreeSet<>();
    String prefix = fullPrefix();
    for (String key : source.items().keySet()) {
      if (!job.inScope(key)) continue;
      if (job.manifest() != null && !job.manifest().keys().contains(prefix + key)) continue;
      keys.add(key);
    }
    return keys;
  }

  /** The source bucket's prefix as a folder ("src" is "src/"). */
  String fullPrefix() {
    String p = scenario.sourcePrefix();
    return p.isEmpty() || p.endsWith("/") ? p : p + "/";
  }

  /**
   * A run without faults over {@code source}, into a destination that holds {@code before} (relative key → digest).
   */
  Expected expect(Job job, Source source, Map<String, String> before) {
    if (refusedConfig(job)) return new Expected(2, Set.of(), Set.of(), Set.of(), Set.of(), false);
    Set<String> listed = listed(job, source);
    Set<String> selected = new TreeSet<>();
    // a source's symbolic link not followed to a file: reported, never copied; and the cut-over does not run past it
    Set<String> linksLeft = new TreeSet<>();
    for (String key : listed) {
      if (source.digests().get(key).startsWith("link:") && !job.copyLinks()) linksLeft.add(key);
      else if (job.inRanges(source.items().get(key))) selected.add(key);
    }
    Set<String> rejected = new TreeSet<>();
    Set<String> unreachable = new TreeSet<>();
    if (scenario.destinationKind() == DestinationKind.DIRECTORY) {
      for (String key : selected) {
        String name = key.substring(key.lastIndexOf('/') + 1);
        boolean folderOfOthers = listed.stream().anyMatch(k -> k.startsWith(key + "/"));
        if (folderOfOthers || name.matches("\\..*\\.ferry-.*\\.tmp")) rejected.add(key);
        else if (scenario.links().linkFolder() && key.startsWith("link/")) unreachable.add(key);
      }
      // keys that differ only in case, in a folder that folds case: one file, so neither is copied
      if (folds && selected.contains(Scenario.Paths.TWIN_UPPER) && selected.contains(Scenario.Paths.TWIN_LOWER)) {
        rejected.add(Scenario.Paths.TWIN_UPPER);
        rejected.add(Scenario.Paths.TWIN_LOWER);
      }
    }
    // archived at the source and not held unchanged at the destination: under fail a failure (never written), under skip
    // left and reported; under restore the job waits, and each restore finishes by the next listing: copied as the rest
    Set<String> archivedLeft = new TreeSet<>();
    Scenario.Archived archived = scenario.archived();
    if (!archived.restores()) {
      for (String key : selected) {
        if (!archived.keys().contains(key) || rejected.contains(key) || unreachable.contains(key)) continue;
        boolean held = job.skipUnchanged() && source.digests().get(key).equals(before.get(key));
        if (!held) archivedLeft.add(key);
      }
      if (archived.policy().equals("fail")) rejected.addAll(archivedLeft);
      else selected.removeAll(archivedLeft);
    }
    // the cut-over pass: what the destination holds in the selection that the listing lacks
    Set<String> extraneous = new TreeSet<>();
    for (Map.Entry<String, String> e : before.entrySet()) {
      String key = e.getKey();
      // a directory's symbolic links are not objects (a listing skips them), nor is staging
      // (unless the job copies links: then its links are objects of the job's)
      if (e.getValue().startsWith("link:") && !job.copyLinks() || isStaging(key) || !job.inScope(key) || listed.contains(key)) continue;
      extraneous.add(key);
    }
    long copied = selected.size() - rejected.size();
    boolean runs = false;
    boolean refused = false;
    Set<String> deleted = new TreeSet<>();
    if (job.deleteExtraneous() && !extraneous.isEmpty()) {
      if (rejected.isEmpty() && unreachable.isEmpty() && linksLeft.isEmpty() && archivedLeft.isEmpty()) {
        refused = !withinCap(job.maxDelete(), extraneous.size(), copied + extraneous.size());
        runs = !refused;
      }
      if (runs) for (String key : extraneous) if (!source.items().containsKey(key)) deleted.add(key); // the source holds the rest
    }
    int exit = rejected.isEmpty() && unreachable.isEmpty() && !refused ? 0 : 1;
    return new Expected(exit, selected, rejected, unreachable, deleted, runs);
  }

  private static boolean withinCap(String cap, long deletions, long destination) {
    if (cap.endsWith("%")) return deletions * 100.0 <= Double.parseDouble(cap.substring(0, cap.length() - 1)) * destination + 1e-9;
    return deletions <= Long.parseLong(cap);
  }

  /** A directory destination's staging name of any job; at a bucket, where nothing is staged, no key is. */
  boolean isStaging(String key) {
    return scenario.destinationKind() == DestinationKind.DIRECTORY && isStagingName(key);
  }

  /** A temp file or marker of this scenario's job. */
  boolean ownStaging(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
    return isStagingName(key) && (name.contains(".ferry-" + scenario.jobName() + ".") || name.contains("-" + scenario.jobName() + "."));
  }

  /** A directory's staging name of any job: never an object there. */
  static boolean isStagingName(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
    return name.matches("\\..*\\.ferry-.*\\.tmp") || name.matches("\\.ferry-.*\\.marker");
  }

  /** Snapshots around one run, and what the run was. */
  record Observed(Map<String, String> destinationBefore, Map<String, String> destinationAfter, Map<String, String> outsideBefore,
      Map<String, String> outsideAfter, Source sourceBefore, Source sourceAfter, Map<String, Set<String>> versions,
      Set<String> unstable, Integer exit, String console, Map<String, List<String>> sourceHistories,
      Map<String, List<String>> destinationHistories) {}

  /**
   * The invariants of every run (I1 to I4); {@code job} as the run had it. Returns what is violated, one line each.
   *
   * @param versions every content (digest) each source key held during the run
   * @param unstable source keys changed during the run
   * @param promisedKeys the keys a delta pass's exit 0 promises (those its delivered events name); null for a full pass
   */
  List<String> check(Job job, Observed o, Set<String> promisedKeys) {
    List<String> violations = new ArrayList<>();
    // I1: nothing outside the destination's root or prefix created, changed or deleted
    if (!o.outsideBefore().equals(o.outsideAfter())) {
      violations.add("I1: outside the destination changed: " + difference(o.outsideBefore(), o.outsideAfter()));
    }
    // I1 of the source: nothing under it created, changed or deleted but what the faults changed there
    for (String key : o.sourceBefore().digests().keySet()) {
      if (o.unstable().contains(key)) continue;
      String after = o.sourceAfter().digests().get(key);
      if (!o.sourceBefore().digests().get(key).equals(after)) {
        violations.add("I1: the source's " + key + (after == null ? " was deleted" : " was changed"));
      }
    }
    for (String key : o.sourceAfter().digests().keySet()) {
      if (!o.sourceBefore().digests().containsKey(key) && !o.unstable().contains(key)) violations.add("I1: " + key + " was created in the"
          + " source");
    }
    // I3 of histories: a versioned destination holds the start of each key's history at the source, version by version
    // (the same versions, the same order, none twice)
    for (String key : keysOf(o.sourceHistories(), o.destinationHistories())) {
      if (!job.inScope(key)) continue;
      List<String> from = o.sourceHistories().getOrDefault(key, List.of());
      List<String> to = o.destinationHistories().getOrDefault(key, List.of());
      if (to.size() > from.size() || !from.subList(0, to.size()).equals(to)) {
        violations.add("I3: " + key + "'s history is " + shortDigests(to) + ", not the start of the source's " + shortDigests(from));
      }
    }
    // I2: no destination object whose key the source still holds in the selection deleted
    for (String key : o.destinationBefore().keySet()) {
      if (o.destinationAfter().containsKey(key) || isStaging(key) || !job.inScope(key)) continue;
      boolean held = o.sourceBefore().items().containsKey(key) && o.sourceAfter().items().containsKey(key) && !o.unstable().contains(key);
      if (held) violations.add("I2: " + key + " was deleted at the destination while the source holds it");
    }
    // another job's staging (its temp files) is none of this job's business
    for (Map.Entry<String, String> e : o.destinationBefore().entrySet()) {
      if (isStaging(e.getKey()) && !ownStaging(e.getKey()) && !e.getValue().equals(o.destinationAfter().get(e.getKey()))) {
        violations.add("I1: another job's temp file " + e.getKey() + " was changed or deleted");
      }
    }
    // I3: every destination object is its previous content or a version the source held during the run, never a mix
    for (Map.Entry<String, String> e : o.destinationAfter().entrySet()) {
      String key = e.getKey();
      if (isStaging(key)) continue;
      String previous = o.destinationBefore().get(key);
      if (e.getValue().equals(previous)) continue;
      Set<String> held = o.versions().getOrDefault(key, Set.of());
      if (!job.inScope(key)) {
        violations.add("I3: " + key + " lies outside the job's selection and was written");
      } else if (!held.contains(e.getValue())) {
        violations.add("I3: " + key + " holds " + shortDigest(e.getValue()) + ", neither its previous content (" + shortDigest(previous)
            + ") nor a version of the source's (" + held.stream().map(Oracle::shortDigest).toList() + ")");
      }
    }
    // I4: exit 0 only when every selected object (not changed during the run) is byte-identical at the destination; for
    // a delta pass, every one its delivered events name
    if (o.exit() != null && o.exit() == 0) {
      Expected e = expect(job, o.sourceAfter(), o.destinationBefore());
      java.util.function.Predicate<String> promised = k -> promisedKeys == null || promisedKeys.contains(k);
      List<String> rejected = e.rejected().stream().filter(promised).toList();
      List<String> unreachable = e.unreachable().stream().filter(promised).toList();
      if (!rejected.isEmpty() || !unreachable.isEmpty()) {
        violations.add("I4: exit 0 with objects the destination cannot hold: " + rejected + " " + unreachable);
      }
      for (String key : e.selected()) {
        if (o.unstable().contains(key) || e.rejected().contains(key) || !promised.test(key)) continue;
        String want = o.sourceAfter().digests().get(key);
        if (!want.equals(o.destinationAfter().get(key))) {
          violations.add("I4: exit 0 but " + key + " is " + shortDigest(o.destinationAfter().get(key)) + ", the source's "
              + shortDigest(want));
        }
      }
    }
    return violations;
  }

  /** I5: the run without faults did what {@link #expect} says, with the exit code it says. */
  List<String> checkComplete(Expected e, Observed o) {
    List<String> violations = new ArrayList<>();
    if (o.exit() == null || o.exit() != e.exit()) violations.add("I5: the run without faults exited " + o.exit() + ", expected "
        + e.exit());
    if (e.exit() == 2) {
      if (!o.destinationBefore().equals(o.destinationAfter())) violations.add("I5: a refused job changed the destination");
      return violations;
    }
    for (String key : e.selected()) {
      if (e.rejected().contains(key) || e.unreachable().contains(key)) {
        if (!java.util.Objects.equals(o.destinationBefore().get(key), o.destinationAfter().get(key))) {
          violations.add("I5: " + key + " cannot be held here, and was written");
        }
        continue;
      }
      String want = o.sourceAfter().digests().get(key);
      if (!want.equals(o.destinationAfter().get(key))) {
        violations.add("I5: " + key + " is " + shortDigest(o.destinationAfter().get(key)) + " after the run without faults, the source's "
            + shortDigest(want));
      }
    }
    for (String key : e.deleted()) {
      if (o.destinationAfter().containsKey(key)) violations.add("I5: the cut-over pass should have deleted " + key);
    }
    for (String key : keysOf(o.sourceHistories(), o.destinationHistories())) {
      List<String> from = o.sourceHistories().getOrDefault(key, List.of());
      List<String> to = o.destinationHistories().getOrDefault(key, List.of());
      if (scenario.job().inScope(key) && !from.equals(to)) {
        violations.add("I5: " + key + "'s history is " + shortDigests(to) + " after the run without faults, the source's "
            + shortDigests(from));
      }
    }
    if (!e.cutOverRuns()) {
      for (String key : o.destinationBefore().keySet()) {
        // a replay writes the delete marker that ends a key's history at the source (its history was checked above)
        if (!o.sourceHistories().isEmpty() && scenario.job().inScope(key) && !o.sourceAfter().digests().containsKey(key)) continue;
        if (!o.destinationAfter().containsKey(key) && !isStaging(key) && !o.destinationBefore().get(key).startsWith("link:")) {
          violations.add("I5: " + key + " deleted by a pass that should not run");
        }
      }
    }
    return violations;
  }

  private static String difference(Map<String, String> before, Map<String, String> after) {
    Map<String, String> d = new TreeMap<>();
    before.forEach((k, v) -> {
      if (!v.equals(after.get(k))) d.put(k, after.containsKey(k) ? "changed" : "deleted");
    });
    after.keySet().forEach(k -> {
      if (!before.containsKey(k)) d.put(k, "created");
    });
    return d.toString();
  }

  private static Set<String> keysOf(Map<String, ?> a, Map<String, ?> b) {
    Set<String> keys = new TreeSet<>(a.keySet());
    keys.addAll(b.keySet());
    return keys;
  }

  private static List<String> shortDigests(List<String> digests) {
    return digests.stream().map(Oracle::shortDigest).toList();
  }

  private static String shortDigest(String digest) {
    return digest == null ? "absent" : digest.length() > 10 ? digest.substring(0, 10) : digest;
  }
}
