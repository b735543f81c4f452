package io.ferry.invariants;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * One scenario of the randomized invariant suite, every choice drawn from its seed ({@link #generate}): a source tree,
 * what the destination already holds, a job, and its runs with their faults; the last run has none.
 *
 * @param sourcePrefix the source bucket's prefix as the job file writes it ("src" or "src/": both the folder "src/")
 * @param source the source's objects, keyed relative to the prefix
 * @param outside objects the job must never touch: keys of the source bucket outside its prefix, files beside the
 *     destination directory, keys of the destination bucket outside its prefix
 * @param existing what the destination holds before the first run, keyed relative to its root or prefix
 */
record Scenario(long seed, SourceKind sourceKind, DestinationKind destinationKind, String sourcePrefix, String destinationPrefix,
    List<Item> source, List<Item> outside, List<Item> existing, Links links, Job job, List<Run> runs, SourceLinks sourceLinks,
    Archived archived, Paths paths, Histories histories, Deltas deltas) {

  /**
   * Delta passes from events (issue 48): before each run but the first and the last, writers change the source (keys
   * overwritten, removed, added) and the run reads their events from a JSON-lines file as they were delivered:
   * duplicated, reordered, one lost, and events of keys outside the selection. The last run is a full pass, which
   * repairs what a lost event left; a delta run's exit 0 promises only the keys its events name.
   */
  record Deltas(boolean on, long seed) {
    static final Deltas NONE = new Deltas(false, 0);
  }

  /**
   * A versioned source replayed into a versioned bucket ({@code source.versions = all}, on S3Mock): each key's earlier
   * versions, oldest first, before its current one (the item's own bytes); a seed of 0 is a delete marker. Versions
   * repeat the bytes of the one before now and then, as the issue's [A, A, B] did.
   */
  record Histories(java.util.Map<String, List<Long>> earlier) {
    static final Histories NONE = new Histories(java.util.Map.of());
    static final long MARKER = 0;

    boolean on() {
      return !earlier.isEmpty();
    }
  }

  /**
   * How a directory destination and its delete-to are named (issue 45): as they are, through a link to them (which
   * works as they would), or through a link into the source, or a delete-to inside the destination (refused: exit 2,
   * nothing touched anywhere); and whether the folder {@code dir/} of a directory destination folds case (a FUSE mount,
   * where this machine has one), with two keys there that differ only in case.
   */
  record Paths(Via destination, Via deleteTo, boolean foldingDir) {
    static final Paths PLAIN = new Paths(Via.AS_NAMED, Via.AS_NAMED, false);
    static final String TWIN_UPPER = "dir/Twin.bin";
    static final String TWIN_LOWER = "dir/twin.bin";

    /** A job file Ferry refuses before writing anything. */
    boolean refused() {
      return destination == Via.INTO_SOURCE || deleteTo == Via.INTO_DESTINATION;
    }
  }

  enum Via { AS_NAMED, LINK, INTO_SOURCE, INTO_DESTINATION }

  /** Keys a spreadsheet would take for formulas, and one a browser would take for HTML: for the reports' checks. */
  static final List<String> ODD_KEYS = List.of("=HYPERLINK(\"x\").txt", "+SUM(1+1).bin", "-2+3.bin", "@SUM(1).txt",
      "<img src=x onerror=alert(1)>.txt");

  /**
   * Objects archived at a bucket source (keys relative to its prefix), played by the source proxy's archive tier: what
   * the job does with them ({@code source.archived}), and whether the store's HEAD tells of restores. Under restore
   * the job waits for them ({@code restore.wait}), and each restore finishes by the next listing.
   */
  record Archived(List<String> keys, String policy, boolean showsRestores) {
    static final Archived NONE = new Archived(List.of(), "fail", true);

    boolean restores() {
      return policy.equals("restore");
    }
  }

  /**
   * A directory source's symbolic links: {@code lnk.bin} to the source's file {@code toFile} (null: none), and
   * {@code lnk-gone.bin} to nothing.
   */
  record SourceLinks(String toFile, boolean dangling) {
    static final SourceLinks NONE = new SourceLinks(null, false);
    static final String TO_FILE = "lnk.bin";
    static final String DANGLING = "lnk-gone.bin";
  }

  enum SourceKind { BUCKET, DIRECTORY }

  /** A directory, a bucket of another server, or a bucket of the source's own server. */
  enum DestinationKind { DIRECTORY, BUCKET, SAME_SERVICE }

  /** An object: its key, size, the seed of its bytes, its modification time (directories), whether uploaded in parts. */
  record Item(String key, int size, long seed, long mtime, boolean multipart) {}

  /** At a directory destination: a folder that is a link out of it, and a link planted at a temp file's name. */
  record Links(boolean linkFolder, boolean plantedTemp) {
    static final Links NONE = new Links(false, false);
  }

  /** A glob of the menu, with what it means written out independently of Ferry's matcher. */
  record Glob(String glob, Predicate<String> matches) {
    @Override
    public String toString() {
      return glob;
    }
  }

  static final List<Glob> INCLUDES = List.of(new Glob("**", k -> true), new Glob("**/*.bin", k -> k.endsWith(".bin")),
      new Glob("dir/**", k -> k.startsWith("dir/")));
  static final List<Glob> EXCLUDES = List.of(new Glob("", k -> false), new Glob("**/*.tmp", k -> k.endsWith(".tmp")),
      new Glob("*.txt", k -> !k.contains("/") && k.endsWith(".txt")));

  /** A manifest (key list) naming some of the source's keys (full keys), and maybe one it no longer holds. */
  record Manifest(List<String> keys, boolean complete) {}

  /**
   * The job file's choices.
   *
   * @param streams streams per task, 0 for auto (the tuned gate)
   * @param maxSize -1 for none
   * @param modifiedAfter epoch millis, or -1 for none (directory sources, whose times the suite sets)
   * @param manifest null to list the source
   */
  record Job(long partSize, int streams, List<String> prefixes, int include, int exclude, long minSize, long maxSize,
      long modifiedAfter, Manifest manifest, boolean deleteExtraneous, String maxDelete, boolean deleteTo, boolean skipUnchanged,
      boolean serverSideNever, boolean checksums, boolean followLinks, boolean copyTags, boolean keepClass, boolean copyLinks,
      int pageKeys, boolean directIo, boolean prefixRates) {

    Job withPartSize(long size) {
      return new Job(size, streams, prefixes, include, exclude, minSize, maxSize, modifiedAfter, manifest, deleteExtraneous, maxDelete,
          deleteTo, skipUnchanged, serverSideNever, checksums, followLinks, copyTags, keepClass, copyLinks,
          pageKeys, directIo, prefixRates);
    }

    Job withStreams(int n) {
      return new Job(partSize, n, prefixes, include, exclude, minSize, maxSize, modifiedAfter, manifest, deleteExtraneous, maxDelete,
          deleteTo, skipUnchanged, serverSideNever, checksums, followLinks, copyTags, keepClass, copyLinks,
          pageKeys, directIo, prefixRates);
    }

    /** source.symlinks = follow, destination.copy-tags, destination.storage-class = keep. */
    Job withWrites(boolean follow, boolean tags, boolean keep) {
      return new Job(partSize, streams, prefixes, include, exclude, minSize, maxSize, modifiedAfter, manifest, deleteExtraneous,
          maxDelete, deleteTo, skipUnchanged, serverSideNever, checksums, follow, tags, keep, copyLinks, pageKeys, directIo, prefixRates);
    }

    /** source.symlinks = copy (over follow). */
    Job withCopiedLinks() {
      return new Job(partSize, streams, prefixes, include, exclude, minSize, maxSize, modifiedAfter, manifest, deleteExtraneous,
          maxDelete, deleteTo, skipUnchanged, serverSideNever, checksums, false, copyTags, keepClass, true,
          pageKeys, directIo, prefixRates);
    }

    /** No size range: every version of a history is the job's. */
    Job withAllSizes() {
      return new Job(partSize, streams, prefixes, include, exclude, 0, -1, modifiedAfter, manifest, deleteExtraneous, maxDelete,
          deleteTo, skipUnchanged, serverSideNever, checksums, followLinks, copyTags, keepClass, copyLinks,
          pageKeys, directIo, prefixRates);
    }

    /** destination.direct-io: a directory's files written around the page cache, and read back from the disk. */
    Job withDirectIo(boolean direct) {
      return new Job(partSize, streams, prefixes, include, exclude, minSize, maxSize, modifiedAfter, manifest, deleteExtraneous, maxDelete,
          deleteTo, skipUnchanged, serverSideNever, checksums, followLinks, copyTags, keepClass, copyLinks, pageKeys, direct, prefixRates);
    }

    /** limits.prefix-rates: false leaves each executor's own throttling alone to answer a prefix's slow-downs. */
    Job withPrefixRates(boolean on) {
      return new Job(partSize, streams, prefixes, include, exclude, minSize, maxSize, modifiedAfter, manifest, deleteExtraneous, maxDelete,
          deleteTo, skipUnchanged, serverSideNever, checksums, followLinks, copyTags, keepClass, copyLinks, pageKeys, directIo, on);
    }

    /** plan.listing-page-keys: small pages list a bucket in rounds. */
    Job withPageKeys(int n) {
      return new Job(partSize, streams, prefixes, include, exclude, minSize, maxSize, modifiedAfter, manifest, deleteExtraneous, maxDelete,
          deleteTo, skipUnchanged, serverSideNever, checksums, followLinks, copyTags, keepClass, copyLinks, n, directIo, prefixRates);
    }

    /** Whether the selection takes a key relative to the prefix, by folders and globs (sizes and times aside). */
    boolean inScope(String key) {
      boolean under = prefixes.isEmpty() || prefixes.stream().anyMatch(p -> key.startsWith(p.endsWith("/") ? p : p + "/"));
      return under && INCLUDES.get(include).matches().test(key) && !EXCLUDES.get(exclude).matches().test(key);
    }

    boolean inRanges(Item item) {
      return item.size() >= minSize && (maxSize < 0 || item.size() <= maxSize) && (modifiedAfter < 0 || item.mtime() >= modifiedAfter);
    }
  }

  /** A fault of a run: what a proxy does to which requests, or what happens to the source meanwhile. */
  sealed interface Fault {
    /** {@code times} requests of {@code kind} at one side answered by {@code status}/{@code code}. */
    record Burst(boolean atSource, String kind, int status, String code, int times) implements Fault {}

    /** Every request to one side answered 503 for {@code millis}, from that side's first request of {@code kind}. */
    record Storm(boolean atSource, String kind, long millis) implements Fault {}

    /** Response bodies of GETs cut after {@code bytes}, {@code times} times. */
    record Truncated(int bytes, int times) implements Fault {}

    /** A GET body's byte flipped, once. */
    record FlipDown(long offset) implements Fault {}

    /** An upload body's byte flipped, once. */
    record FlipUp(String kind, long offset) implements Fault {}

    /** A request of {@code kind} (CompleteMultipartUpload, CreateMultipartUpload) done by the server, its answer lost. */
    record LostAnswer(String kind) implements Fault {}

    /** A source object overwritten (new bytes, maybe a new size) or deleted when its first GET arrives. */
    record Mutate(String key, boolean delete, int size, long seed) implements Fault {}

    /** Files of a directory source created and removed over and over while the run lists and copies. */
    record Churn() implements Fault {}

    /** A file of a directory source rewritten in place after {@code millis}. */
    record Rewrite(String key, long millis, long seed) implements Fault {}

    /**
     * Into a versioned bucket: the writes of one key refused (403) after its first {@code after} in the run, so that a
     * replay stops part-way through the key's history (as a kill between generations leaves it).
     */
    record Refuse(String key, int after) implements Fault {}
  }

  /**
   * One run of the job.
   *
   * @param killAfterMillis > 0: the run's driver (a JVM of its own) is killed with SIGKILL this long after it started
   * @param cleanupAfter 'ferry cleanup' runs after this one
   * @param partSize the job's part size from this run on (0: unchanged)
   * @param streams the job's streams from this run on (0: unchanged)
   */
  record Run(List<Fault> faults, long killAfterMillis, boolean cleanupAfter, long partSize, int streams) {
    static final Run CLEAN = new Run(List.of(), 0, false, 0, 0);

    boolean faulty() {
      return !faults.isEmpty() || killAfterMillis > 0;
    }
  }

  private static final String[] SMALL_KEYS = {"a.bin", "b.txt", "c", "dir/x.bin", "dir/y.txt", "dir/sub/z.bin", "dir2/w.bin",
      "2018/a.bin", "2018/b.tmp", "2018x/c.bin", "\u00fc/\u00e9t\u00e9.bin", "\u65e5\u672c/\u540d\u524d.txt", "sp ace/k.bin", "e.tmp",
      "dir/sub/deep/v.txt"};
  private static final int[] SMALL_SIZES = {0, 1, 100, 4096, 65_537, 300_000};

  /** Everything a scenario is, from its seed. */
  static Scenario generate(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    SourceKind sourceKind = r.nextInt(4) == 0 ? SourceKind.DIRECTORY : SourceKind.BUCKET;
    DestinationKind destinationKind = switch (r.nextInt(5)) {
      case 0, 1 -> DestinationKind.DIRECTORY;
      case 2, 3 -> DestinationKind.BUCKET;
      default -> sourceKind == SourceKind.BUCKET ? DestinationKind.SAME_SERVICE : DestinationKind.BUCKET;
    };
    boolean toBucket = destinationKind != DestinationKind.DIRECTORY;
    long mib = 1L << 20;
    long partSize = toBucket ? 5 * mib : (r.nextBoolean() ? mib : 5 * mib / 2);
    String sourcePrefix = sourceKind == SourceKind.BUCKET && r.nextBoolean() ? (r.nextBoolean() ? "src" : "src/") : "";
    String destinationPrefix = toBucket && r.nextBoolean() ? "dst/" : "";

    // the source: small objects from the vocabulary, a pair a directory cannot hold both of, large ones at part boundaries
    List<Item> source = new ArrayList<>();
    long old = 1_577_836_800_000L, recent = 1_704_067_200_000L; // 2020-01-01, 2024-01-01
    for (String key : SMALL_KEYS) {
      if (r.nextInt(3) == 0) continue;
      source.add(new Item(key, SMALL_SIZES[r.nextInt(SMALL_SIZES.length)], r.nextLong(), r.nextBoolean() ? old : recent, false));
    }
    // (no key beside a folder of its own name, "a" with "a/b": neither S3Proxy's filesystem backend nor a directory
    // source can hold both; TriageTest has them)
    if (r.nextInt(6) == 0) source.add(new Item("dir/.q.ferry-other.tmp", 30, r.nextLong(), recent, false));
    int large = r.nextInt(3);
    long[] boundaries = {partSize - 1, partSize, partSize + 1, 2 * partSize + 1};
    for (int i = 0; i < large; i++) {
      source.add(new Item("big-" + i + ".bin", (int) boundaries[r.nextInt(boundaries.length)], r.nextLong(), recent, r.nextBoolean()));
    }

    List<Item> outside = new ArrayList<>();
    outside.add(new Item("keep/x.bin", 500, r.nextLong(), old, false));
    outside.add(new Item("srcx/y.bin", 600, r.nextLong(), old, false));
    outside.add(new Item("dstx/z.bin", 700, r.nextLong(), old, false));

    // the job
    List<List<String>> prefixMenu = List.of(List.of(), List.of(), List.of("dir"), List.of("2018/", "dir/"), List.of("dir/sub"),
        List.of("nope/"));
    List<String> prefixes = prefixMenu.get(r.nextInt(prefixMenu.size()));
    int include = r.nextInt(5) < 3 ? 0 : r.nextInt(INCLUDES.size());
    int exclude = r.nextInt(EXCLUDES.size());
    long minSize = r.nextInt(6) == 0 ? 100 : 0;
    long maxSize = r.nextInt(6) == 0 ? 65_537 : -1;
    long modifiedAfter = sourceKind == SourceKind.DIRECTORY && r.nextInt(4) == 0 ? 1_640_995_200_000L : -1; // 2022-01-01
    Manifest manifest = null;
    if (sourceKind == SourceKind.BUCKET && prefixes.isEmpty() && r.nextInt(5) == 0) {
      List<String> named = new ArrayList<>();
      String full = sourcePrefix.isEmpty() || sourcePrefix.endsWith("/") ? sourcePrefix : sourcePrefix + "/";
      for (Item i : source) if (r.nextInt(3) > 0) named.add(full + i.key());
      if (r.nextBoolean()) named.add(full + "gone/never.bin");
      manifest = new Manifest(named, r.nextInt(3) > 0);
    }
    boolean deleteExtraneous = r.nextInt(5) < 3;
    String maxDelete = List.of("50%", "50%", "100%", "2", "10%").get(r.nextInt(5));
    boolean deleteTo = deleteExtraneous && r.nextInt(4) == 0 && (destinationKind == DestinationKind.DIRECTORY
        || !destinationPrefix.isEmpty());
    int streams = 1 + r.nextInt(8); // 8 draws auto: every other draw of a seed stays as it was
    Job job = new Job(partSize, streams == 8 ? 0 : streams, prefixes, include, exclude, minSize, maxSize, modifiedAfter, manifest,
        deleteExtraneous, maxDelete, deleteTo, r.nextInt(5) > 0, destinationKind == DestinationKind.SAME_SERVICE && r.nextBoolean(),
        r.nextInt(3) == 0, false, true, false, false, 1000, false, true);

    // what the destination holds already: copies, stale versions (another size, so no rule takes them for unchanged),
    // objects only it has (in the selection or not), another job's temp file
    List<Item> existing = new ArrayList<>();
    for (Item i : source) {
      int pick = r.nextInt(5);
      if (pick == 0) existing.add(new Item(i.key(), i.size(), i.seed(), i.mtime(), false)); // a copy
      if (pick == 1) existing.add(new Item(i.key(), i.size() + 1 + r.nextInt(50), r.nextLong(), old, false)); // stale
    }
    for (String key : new String[] {"gone.bin", "dir/gone.bin", "2018/gone.tmp", "dir/sub/old.bin", "elsewhere/k.bin"}) {
      if (r.nextBoolean()) existing.add(new Item(key, 40 + r.nextInt(400), r.nextLong(), old, false));
    }
    if (destinationKind == DestinationKind.DIRECTORY && r.nextInt(3) == 0) {
      existing.add(new Item("dir/.x.bin.ferry-another-job.tmp", 15, r.nextLong(), old, false));
    }
    Links links = destinationKind == DestinationKind.DIRECTORY
        ? new Links(r.nextInt(6) == 0, r.nextInt(4) == 0) : Links.NONE;
    if (links.linkFolder()) source.add(new Item("link/inside.bin", 50, r.nextLong(), recent, false));

    // the runs: up to three with faults (or a kill), then one without
    List<Run> runs = new ArrayList<>();
    int faulty = r.nextInt(4);
    for (int n = 0; n < faulty; n++) {
      boolean kill = r.nextInt(5) == 0;
      List<Fault> faults = new ArrayList<>();
      int count = kill ? 0 : 1 + r.nextInt(2);
      for (int f = 0; f < count; f++) faults.add(fault(r, sourceKind, destinationKind, source));
      boolean change = r.nextInt(5) == 0;
      long newPart = change && r.nextBoolean() ? (toBucket ? 5200L << 10 : partSize + (partSize >> 2)) : 0;
      int newStreams = change && newPart == 0 ? 1 + r.nextInt(8) : 0;
      runs.add(new Run(faults, kill ? 2_000 + r.nextInt(6_000) : 0, kill && r.nextBoolean(), newPart, newStreams));
    }
    runs.add(Run.CLEAN);

    // drawn last, so that the choices above stay what they were for every seed: a directory source's links, and the
    // settings of what travels besides the bytes
    SourceLinks sourceLinks = SourceLinks.NONE;
    if (sourceKind == SourceKind.DIRECTORY && r.nextInt(3) == 0) {
      List<Item> plain = source.stream().filter(i -> !i.key().startsWith("link/")).toList();
      String target = plain.isEmpty() || r.nextInt(4) == 0 ? null : plain.get(r.nextInt(plain.size())).key();
      sourceLinks = new SourceLinks(target, r.nextBoolean());
    }
    job = job.withWrites(sourceKind == SourceKind.DIRECTORY && r.nextBoolean(), r.nextInt(4) > 0, toBucket && r.nextBoolean());
    Archived archived = Archived.NONE;
    // (not one uploaded in parts: S3Proxy lists those in STANDARD whatever class their upload named)
    List<Item> archivable = source.stream().filter(i -> !i.multipart() || i.size() <= 5 << 20).toList();
    if (sourceKind == SourceKind.BUCKET && !archivable.isEmpty() && r.nextInt(3) == 0) {
      List<String> keys = new ArrayList<>();
      for (int n = 1 + r.nextInt(2); n > 0; n--) {
        String key = archivable.get(r.nextInt(archivable.size())).key();
        if (!keys.contains(key)) keys.add(key);
      }
      archived = new Archived(keys, List.of("fail", "skip", "restore").get(r.nextInt(3)), r.nextBoolean());
    }
    if (!sourceLinks.equals(SourceLinks.NONE) && r.nextInt(3) == 0) job = job.withCopiedLinks();
    // pages of 1 to 3 keys: a bucket is listed in rounds (a shard splits after 8 pages)
    if (r.nextInt(3) > 0) job = job.withPageKeys(1 + r.nextInt(3));
    // drawn from a stream of its own, so that every earlier draw of a seed stays what it was: the paths as named, keys
    // that differ only in case, keys a spreadsheet or a browser would run
    SplittableRandom more = new SplittableRandom(seed ^ 0x45L);
    Paths paths = Paths.PLAIN;
    if (destinationKind == DestinationKind.DIRECTORY) {
      int via = more.nextInt(6);
      Via destination = via < 3 ? Via.AS_NAMED : via < 5 || sourceKind != SourceKind.DIRECTORY ? Via.LINK : Via.INTO_SOURCE;
      int asideDraw = more.nextInt(4);
      Via aside = !job.deleteTo() || asideDraw < 2 ? Via.AS_NAMED : asideDraw == 2 ? Via.LINK : Via.INTO_DESTINATION;
      paths = new Paths(destination, aside, more.nextInt(3) == 0);
      if (paths.foldingDir()) {
        source.add(new Item(Paths.TWIN_UPPER, 120, more.nextLong(), recent, false));
        source.add(new Item(Paths.TWIN_LOWER, 130, more.nextLong(), recent, false));
      }
    }
    for (String key : ODD_KEYS) if (more.nextInt(4) == 0) source.add(new Item(key, 10 + more.nextInt(100), more.nextLong(), recent, false));
    Histories histories = Histories.NONE;
    if (sourceKind == SourceKind.BUCKET && destinationKind != DestinationKind.DIRECTORY && job.manifest() == null
        && archived.keys().isEmpty() && !job.deleteExtraneous() && more.nextInt(3) == 0) {
      java.util.Map<String, List<Long>> earlier = new java.util.TreeMap<>();
      for (Item i : source) {
        List<Long> steps = new ArrayList<>();
        long last = more.nextLong();
        for (int n = more.nextInt(4); n > 0; n--) {
          int pick = more.nextInt(6);
          if (pick == 0) {
            steps.add(Histories.MARKER);
          } else {
            if (pick > 2 || steps.isEmpty()) last = more.nextLong() | 1; // else the bytes of the version before again
            steps.add(last);
          }
        }
        if (!steps.isEmpty() && more.nextBoolean() && steps.get(steps.size() - 1) != Histories.MARKER) {
          steps.add(steps.get(steps.size() - 1)); // [..., A, A] before the current one: the history
        }
        earlier.put(i.key(), steps);
      }
      histories = new Histories(earlier);
      existing.clear(); // a versioned destination starts empty: its histories are the replay's alone
      job = job.withAllSizes();
      // a byte flipped in an upload lands a version with the wrong bytes, which a history keeps for good (a gap the
      // suite leaves to its own issue); the rest of the faults stand
      List<String> plain = earlier.entrySet().stream().filter(e -> !e.getValue().isEmpty() && e.getKey().matches("[A-Za-z0-9/._-]+"))
          .map(java.util.Map.Entry::getKey).toList();
      List<Run> kept = new ArrayList<>();
      for (Run run : runs) {
        List<Fault> faults = new ArrayList<>(run.faults().stream().filter(f -> !(f instanceof Fault.FlipUp)).toList());
        if (run.killAfterMillis() == 0 && run.faulty() && !plain.isEmpty() && more.nextBoolean()) {
          faults.add(new Fault.Refuse(plain.get(more.nextInt(plain.size())), 1 + more.nextInt(2)));
        }
        kept.add(new Run(faults, run.killAfterMillis(), run.cleanupAfter(), run.partSize(), run.streams()));
      }
      runs = kept;
    }
    // a stream of its own again: how a directory's files are written
    if (destinationKind == DestinationKind.DIRECTORY && new SplittableRandom(seed ^ 0x47L).nextBoolean()) job = job.withDirectIo(true);
    // and another: a job in four turns the job-wide rate per prefix off (it is on by default)
    if (new SplittableRandom(seed ^ 0x48L).nextInt(4) == 0) job = job.withPrefixRates(false);
    // and another: delta passes from events, where a bucket source's keys can be looked up one by one
    SplittableRandom d = new SplittableRandom(seed ^ 0x4AL);
    boolean deltaSource = sourceKind == SourceKind.BUCKET && !histories.on() && job.manifest() == null && !job.copyLinks()
        && !paths.foldingDir() && runs.size() > 2;
    Deltas deltas = deltaSource && d.nextInt(2) == 0 ? new Deltas(true, d.nextLong()) : Deltas.NONE;
    return new Scenario(seed, sourceKind, destinationKind, sourcePrefix, destinationPrefix, source, outside, existing, links, job, runs,
        sourceLinks, archived, paths, histories, deltas);
  }

  private static Fault fault(SplittableRandom r, SourceKind sourceKind, DestinationKind destinationKind, List<Item> source) {
    boolean toBucket = destinationKind != DestinationKind.DIRECTORY;
    List<String> sourceKinds = List.of("LIST_OBJECTS", "HEAD_OBJECT", "GET_OBJECT");
    List<String> destinationKinds = destinationKind == DestinationKind.SAME_SERVICE
        ? List.of("UPLOAD_PART_COPY", "COPY_OBJECT", "CREATE_UPLOAD", "COMPLETE_UPLOAD", "PUT_OBJECT", "UPLOAD_PART", "LIST_OBJECTS")
        : List.of("UPLOAD_PART", "PUT_OBJECT", "CREATE_UPLOAD", "COMPLETE_UPLOAD", "LIST_OBJECTS", "HEAD_BUCKET", "LIST_UPLOADS");
    List<Item> ascii = source.stream().filter(i -> i.key().chars().allMatch(c -> c > ' ' && c < 127)).toList();
    while (true) {
      int pick = r.nextInt(10);
      boolean bucketSource = sourceKind == SourceKind.BUCKET;
      switch (pick) {
        case 0, 1 -> {
          boolean atSource = bucketSource && (!toBucket || r.nextBoolean());
          if (!atSource && !toBucket) continue;
          List<String> kinds = atSource ? sourceKinds : destinationKinds;
          boolean slow = r.nextBoolean();
          return new Fault.Burst(atSource, kinds.get(r.nextInt(kinds.size())), slow ? 503 : 500, slow ? "SlowDown" : "InternalError",
              1 + r.nextInt(2));
        }
        case 2 -> {
          boolean atSource = bucketSource && (!toBucket || r.nextBoolean());
          if (!atSource && !toBucket) continue;
          return new Fault.Storm(atSource, atSource ? "GET_OBJECT" : destinationKinds.get(r.nextInt(2)), 1_000 + r.nextInt(3_000));
        }
        case 3 -> {
          if (!bucketSource) continue;
          return new Fault.Truncated(1 + r.nextInt(5_000), 1 + r.nextInt(2));
        }
        case 4 -> {
          // a flipped byte of an object whose source keeps no checksum and no MD5 ETag (one uploaded in parts) cannot
          // be told from the real one by anybody: over plain http, TCP alone guards it (README, Limits)
          if (!bucketSource || source.stream().anyMatch(i -> i.multipart() && i.size() > 5 << 20)) continue;
          return new Fault.FlipDown(r.nextInt(64));
        }
        case 5 -> {
          if (destinationKind != DestinationKind.BUCKET) continue;
          return new Fault.FlipUp(r.nextBoolean() ? "PUT_OBJECT" : "UPLOAD_PART", r.nextInt(2_000));
        }
        case 6 -> {
          if (!toBucket) continue;
          return new Fault.LostAnswer(r.nextBoolean() ? "COMPLETE_UPLOAD" : "CREATE_UPLOAD");
        }
        case 7, 8 -> {
          if (ascii.isEmpty()) continue;
          Item victim = ascii.get(r.nextInt(ascii.size()));
          if (bucketSource) return new Fault.Mutate(victim.key(), r.nextInt(3) == 0, victim.size() + r.nextInt(2) * 7, r.nextLong());
          return new Fault.Rewrite(victim.key(), r.nextInt(1_500), r.nextLong());
        }
        default -> {
          if (bucketSource) continue;
          return new Fault.Churn();
        }
      }
    }
  }

  /** The job's name: its reports, ledger and temp files. */
  String jobName() {
    return "inv-" + Long.toHexString(seed);
  }

  /**
   * The job's copy.buffer-size: a page, the default or a MiB, drawn from a stream of its own so that every other draw
   * of a seed stays what it was.
   */
  int bufferSize() {
    return new int[] {4 << 10, 64 << 10, 1 << 20}[new SplittableRandom(seed ^ 0x5DEECE66DL).nextInt(3)];
  }

  /** One paragraph a failure prints: everything that was drawn. */
  String describe() {
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "seed %d: %s -> %s%s%s%n", seed, sourceKind, destinationKind,
        sourcePrefix.isEmpty() ? "" : ", source.prefix \"" + sourcePrefix + "\"",
        destinationPrefix.isEmpty() ? "" : ", destination.prefix \"" + destinationPrefix + "\""));
    s.append("  job: ").append(job).append(", copy.buffer-size ").append(bufferSize()).append('\n');
    s.append("  source: ");
    source.forEach(i -> s.append(i.key()).append(" (").append(i.size()).append(i.multipart() ? ", in parts" : "").append(") "));
    s.append("\n  destination before: ");
    existing.forEach(i -> s.append(i.key()).append(" (").append(i.size()).append(") "));
    if (links.linkFolder() || links.plantedTemp()) s.append("\n  links: ").append(links);
    if (!sourceLinks.equals(SourceLinks.NONE)) s.append("\n  source links: ").append(sourceLinks);
    if (!archived.keys().isEmpty()) s.append("\n  archived: ").append(archived);
    if (!paths.equals(Paths.PLAIN)) s.append("\n  paths: ").append(paths);
    if (histories.on()) s.append("\n  histories (earlier versions, 0 a delete marker): ").append(histories.earlier());
    if (deltas.on()) s.append("\n  delta passes from events between the first run and the last (their seed ").append(deltas.seed())
        .append(')');
    for (int n = 0; n < runs.size(); n++) s.append("\n  run ").append(n + 1).append(": ").append(runs.get(n));
    return s.toString();
  }
}
