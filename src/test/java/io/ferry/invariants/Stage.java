package io.ferry.invariants;

import io.ferry.Ferry;
import io.ferry.invariants.Scenario.DestinationKind;
import io.ferry.invariants.Scenario.Fault;
import io.ferry.invariants.Scenario.Item;
import io.ferry.invariants.Scenario.Job;
import io.ferry.invariants.Scenario.SourceKind;
import io.ferry.ledger.Ledger;
import io.ferry.store.file.KeyPaths;
import io.ferry.support.ArchiveTier;
import io.ferry.support.FaultProxy;
import io.ferry.support.FerryProcess;
import io.ferry.support.S3Backend;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A scenario's world on real parts: its source (a bucket of server A, or a directory), its destination (a directory
 * in a sandbox with things beside it that must come to no harm; a bucket of server B, or of A itself, with keys
 * beside its prefix and a bystander bucket), the fault proxies in front of both servers, and Ferry run in this JVM on
 * the shared Spark context, or in a JVM of its own that is killed.
 */
final class Stage {
  /**
   * The servers, their proxies and the work folder, shared by every scenario of a class; S3Mock (versions) behind a
   * proxy of its own, whose aborts it answers itself ({@code aborted}: S3Mock deletes every version of a key when an
   * upload of it is aborted, which S3 never does).
   */
  record Servers(S3Backend a, S3Backend b, FaultProxy toA, FaultProxy toB, io.ferry.support.S3MockProcess mock, FaultProxy toMock,
      Set<String> aborted, java.util.concurrent.atomic.AtomicReference<FaultProxy.Decider> mockRules, Path work) {}

  /** What a run did. */
  record Outcome(Integer exit, String console) {}

  private final Servers servers;
  private final Scenario scenario;
  private final Path root;
  private final Path sandbox;
  private final Path destination;
  private final Path sourceDirectory;
  private final String sourceBucket;
  private final String destinationBucket;
  private final String bystander;
  /** Every content each source key held (relative key → digests), and those changed during the current run. */
  private final Map<String, Set<String>> versions = new ConcurrentHashMap<>();
  private final Set<String> unstable = ConcurrentHashMap.newKeySet();
  private final List<Thread> background = new ArrayList<>();
  private final AtomicBoolean running = new AtomicBoolean();
  private Job job;
  /** The current run's events, where it is a delta pass; null for a full pass. */
  private Delta delta;
  private long sequencer = 0x0055AED6DCD90000L;

  /** A delta pass's events file, and the keys its delivered events name (relative to the source's prefix). */
  record Delta(Path file, Set<String> named) {}
  /** The source's archive tier, where the scenario archives objects (on the source's proxy until {@link #close}). */
  private ArchiveTier tier;

  Stage(Servers servers, Scenario scenario) {
    this.servers = servers;
    this.scenario = scenario;
    String id = Long.toHexString(scenario.seed());
    this.root = servers.work().resolve("s-" + id);
    this.sandbox = root.resolve("sandbox");
    this.destination = sandbox.resolve("destination");
    this.sourceDirectory = root.resolve("source");
    this.sourceBucket = ("src-" + id).toLowerCase();
    this.destinationBucket = ("dst-" + id).toLowerCase();
    this.bystander = ("by-" + id).toLowerCase();
    this.job = scenario.job();
  }

  Job job() {
    return job;
  }

  /** The case-folding mount of {@code dir/} at a directory destination, where the scenario has one. */
  private io.ferry.support.CaseFoldingMount folding;

  /** Whether this machine mounts a folder that folds case (a FUSE mount: {@code .ci/run} installs what it needs). */
  static final boolean FOLDS = foldsHere();

  private static boolean foldsHere() {
    String why = io.ferry.support.CaseFoldingMount.unavailable();
    if (why != null) System.out.println("InvariantsIT: NO CASE-FOLDING FOLDER on this machine (" + why + "): scenarios that draw one run"
        + " with a folder that keeps case");
    return why == null;
  }

  /** The source's proxy plays no archive tier any more; a case-folding mount goes. */
  void close() {
    servers.toA().decide(null);
    if (folding != null) {
      try {
        folding.close();
      } catch (Exception e) {
        throw new IllegalStateException("the case-folding mount did not go: " + e, e);
      }
    }
  }

  /** Whether {@code dir/} of the destination folds case in this scenario. */
  boolean folds() {
    return folding != null;
  }

  /**
   * The reports of every run (issue 45): no CSV cell a spreadsheet would run (a key starting = + - @ is written '...),
   * and no key as HTML in the report page.
   */
  List<String> reportViolations() throws IOException {
    List<String> violations = new ArrayList<>();
    Path runs = root.resolve("reports").resolve(scenario.jobName());
    if (!Files.isDirectory(runs)) return violations;
    try (var walk = Files.walk(runs)) {
      for (Path p : walk.toList()) {
        String name = p.getFileName().toString();
        if (name.endsWith(".csv") && Files.isRegularFile(p) && !name.startsWith(".")) {
          for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
            for (String cell : csvCells(line)) {
              if (!cell.isEmpty() && "=+@".indexOf(cell.charAt(0)) >= 0 || cell.startsWith("-") && !cell.matches("-[0-9.E]+")) {
                violations.add("a CSV cell a spreadsheet would run, in " + runs.relativize(p) + ": " + cell);
              }
            }
          }
        } else if (name.equals("report.html") && Files.readString(p).contains("<img src=x")) {
          violations.add("a key as HTML in " + runs.relativize(p));
        }
      }
    }
    return violations;
  }

  /** A CSV line's cells (RFC 4180: quoted cells may hold commas and doubled quotes). */
  static List<String> csvCells(String line) {
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
        cell.append('"');
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    cells.add(cell.toString());
    return cells;
  }

  /**
   * I7: no GET or copy of an archived object's bytes while it could not be read (each a refused, billed request), and
   * at most one restore started per archived object, over all the runs.
   */
  List<String> archiveViolations() {
    List<String> violations = new ArrayList<>();
    if (tier == null) return violations;
    String prefix = new Oracle(scenario).fullPrefix();
    for (String key : scenario.archived().keys()) {
      if (tier.refusedReads(prefix + key) > 0) {
        violations.add("I7: " + tier.refusedReads(prefix + key) + " reads of the archived " + key + " while it could not be read");
      }
      if (tier.acceptedRestores(prefix + key) > 1) {
        violations.add("I7: " + tier.acceptedRestores(prefix + key) + " restores of " + key + " started: paid for more than once");
      }
    }
    return violations;
  }

  Set<String> unstable() {
    return Set.copyOf(unstable);
  }

  Map<String, Set<String>> versions() {
    Map<String, Set<String>> copy = new TreeMap<>();
    versions.forEach((k, v) -> copy.put(k, Set.copyOf(v)));
    return copy;
  }

  private boolean versioned() {
    return scenario.histories().on();
  }

  private S3Client sourceClient() {
    return versioned() ? servers.mock().client() : servers.a().client();
  }

  private S3Client destinationClient() {
    if (versioned()) return servers.mock().client();
    return scenario.destinationKind() == DestinationKind.SAME_SERVICE ? servers.a().client() : servers.b().client();
  }

  /**
   * The current version's digest of each key under {@code prefix}, by its key relative to it (a key whose latest version
   * is a delete marker has none), as {@link io.ferry.support.Buckets#digests} gives them.
   */
  private Map<String, String> current(S3Client s3, String bucket, String prefix) {
    if (!versioned()) return io.ferry.support.Buckets.digests(s3, bucket, prefix);
    Map<String, String> out = new TreeMap<>();
    for (var v : s3.listObjectVersionsPaginator(b -> b.bucket(bucket).prefix(prefix)).versions()) {
      if (!Boolean.TRUE.equals(v.isLatest())) continue;
      out.put(v.key().substring(prefix.length()), sha256(s3.getObjectAsBytes(b -> b.bucket(bucket).key(v.key()).versionId(v.versionId()))
          .asByteArray()));
    }
    for (var m : s3.listObjectVersionsPaginator(b -> b.bucket(bucket).prefix(prefix)).deleteMarkers()) {
      if (Boolean.TRUE.equals(m.isLatest())) out.remove(m.key().substring(prefix.length()));
    }
    return out;
  }

  /**
   * Each key's history under {@code prefix} (relative to it), oldest first: a version's digest, "D" for a delete
   * marker; markers that mark nothing (first, or after another) left out, as a replay leaves them.
   */
  Map<String, List<String>> histories(boolean source) {
    Map<String, List<String>> out = new TreeMap<>();
    if (!versioned()) return out;
    S3Client s3 = source ? sourceClient() : destinationClient();
    String bucket = source ? sourceBucket : destinationBucket;
    String prefix = source ? new Oracle(scenario).fullPrefix() : scenario.destinationPrefix();
    record V(String key, String id, long millis, boolean marker, boolean latest) {}
    Map<String, List<V>> byKey = new TreeMap<>();
    var pages = s3.listObjectVersionsPaginator(b -> b.bucket(bucket).prefix(prefix));
    for (var v : pages.versions()) {
      byKey.computeIfAbsent(v.key(), k -> new ArrayList<>()).add(new V(v.key(), v.versionId(), v.lastModified().toEpochMilli(), false,
          Boolean.TRUE.equals(v.isLatest())));
    }
    for (var m : pages.deleteMarkers()) {
      byKey.computeIfAbsent(m.key(), k -> new ArrayList<>()).add(new V(m.key(), m.versionId(), m.lastModified().toEpochMilli(), true,
          Boolean.TRUE.equals(m.isLatest())));
    }
    byKey.forEach((key, all) -> {
      // S3Mock lists a key's versions, then its markers, each marker at the time of the version it covers: read by time,
      // the latest first, a marker before a version of its time (as VersionsIT reads them)
      List<V> sorted = new ArrayList<>(all);
      sorted.sort(java.util.Comparator.comparing(V::latest).reversed().thenComparing(java.util.Comparator.comparingLong(V::millis)
          .reversed()).thenComparing(V::marker, java.util.Comparator.reverseOrder()));
      java.util.Collections.reverse(sorted);
      List<String> history = new ArrayList<>();
      for (V v : sorted) {
        if (v.marker()) {
          if (!history.isEmpty() && !history.get(history.size() - 1).equals("D")) history.add("D");
        } else {
          history.add(sha256(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key).versionId(v.id())).asByteArray()));
        }
      }
      out.put(key.substring(prefix.length()), history);
    });
    return out;
  }

  private boolean toBucket() {
    return scenario.destinationKind() != DestinationKind.DIRECTORY;
  }

  // ---- the world before the first run ----

  void build() throws Exception {
    Files.createDirectories(sandbox);
    if (versioned()) {
      for (String b : List.of(sourceBucket, destinationBucket, bystander)) {
        sourceClient().createBucket(c -> c.bucket(b));
        sourceClient().putBucketVersioning(c -> c.bucket(b).versioningConfiguration(v -> v.status(
            software.amazon.awssdk.services.s3.model.BucketVersioningStatus.ENABLED)));
      }
      String prefix = new Oracle(scenario).fullPrefix();
      for (Item i : scenario.source()) {
        for (long step : scenario.histories().earlier().getOrDefault(i.key(), List.of())) {
          if (step == Scenario.Histories.MARKER) {
            sourceClient().deleteObject(b -> b.bucket(sourceBucket).key(prefix + i.key()));
          } else {
            put(sourceClient(), sourceBucket, prefix + i.key(), new Item(i.key(), i.size(), step, i.mtime(), i.multipart()));
            versions.computeIfAbsent(i.key(), k -> ConcurrentHashMap.newKeySet()).add(digest(i.size(), step));
          }
          sleep(3); // versions of a key apart in time: S3Mock orders them by it
        }
        put(sourceClient(), sourceBucket, prefix + i.key(), i);
      }
      if (!prefix.isEmpty()) for (Item i : scenario.outside()) put(sourceClient(), sourceBucket, i.key(), i);
    } else if (scenario.sourceKind() == SourceKind.BUCKET) {
      sourceClient().createBucket(b -> b.bucket(sourceBucket));
      String prefix = new Oracle(scenario).fullPrefix();
      for (Item i : scenario.source()) put(sourceClient(), sourceBucket, prefix + i.key(), i,
          scenario.archived().keys().contains(i.key()) ? "GLACIER" : null);
      if (!scenario.archived().keys().isEmpty()) {
        tier = new ArchiveTier(sourceBucket, scenario.archived().showsRestores());
        scenario.archived().keys().forEach(k -> tier.archive(prefix + k));
        if (scenario.archived().restores()) tier.thawAfterHeads(1);
        servers.toA().decide(tier);
      }
      if (!prefix.isEmpty()) for (Item i : scenario.outside()) put(sourceClient(), sourceBucket, i.key(), i); // beside the prefix
    } else {
      for (Item i : scenario.source()) write(sourceDirectory, i.key(), i);
      Scenario.SourceLinks links = scenario.sourceLinks();
      if (links.toFile() != null) Files.createSymbolicLink(sourceDirectory.resolve(Scenario.SourceLinks.TO_FILE), Path.of(links.toFile()));
      if (links.dangling()) Files.createSymbolicLink(sourceDirectory.resolve(Scenario.SourceLinks.DANGLING), Path.of(DANGLING_TARGET));
    }
    for (Item i : scenario.source()) versions.computeIfAbsent(i.key(), k -> ConcurrentHashMap.newKeySet()).add(digest(i.size(), i.seed()));
    String linked = scenario.sourceLinks().toFile();
    if (scenario.job().copyLinks()) {
      // a link copied is its target: a link again in a directory, an object name.rclonelink holding it in a bucket
      if (linked != null) versions.computeIfAbsent(linkKey(Scenario.SourceLinks.TO_FILE), k -> ConcurrentHashMap.newKeySet())
          .add(linkDigest(linked));
      if (scenario.sourceLinks().dangling()) versions.computeIfAbsent(linkKey(Scenario.SourceLinks.DANGLING),
          k -> ConcurrentHashMap.newKeySet()).add(linkDigest(DANGLING_TARGET));
    } else if (linked != null) {
      versions.computeIfAbsent(Scenario.SourceLinks.TO_FILE, k -> ConcurrentHashMap.newKeySet()).addAll(versions.getOrDefault(linked,
          Set.of()));
    }
    Map<String, Long> sourceTimes = sourceTimes();
    if (toBucket()) {
      if (!versioned()) {
        destinationClient().createBucket(b -> b.bucket(destinationBucket));
        destinationClient().createBucket(b -> b.bucket(bystander));
      }
      for (Item i : scenario.existing()) put(destinationClient(), destinationBucket, scenario.destinationPrefix() + i.key(), i);
      for (Item i : scenario.outside()) {
        put(destinationClient(), scenario.destinationPrefix().isEmpty() ? bystander : destinationBucket, i.key(), i);
      }
    } else {
      Files.createDirectories(destination);
      if (scenario.paths().foldingDir() && FOLDS) folding = io.ferry.support.CaseFoldingMount.at(destination.resolve("dir"),
          root.resolve("dir-backing"));
      if (scenario.paths().destination() == Scenario.Via.LINK) Files.createSymbolicLink(root.resolve("destination-link"), destination);
      if (scenario.paths().destination() == Scenario.Via.INTO_SOURCE) {
        Files.createSymbolicLink(root.resolve("into-source"), sourceDirectory);
      }
      if (scenario.paths().deleteTo() == Scenario.Via.LINK) {
        Files.createSymbolicLink(root.resolve("deleted-link"), Files.createDirectories(sandbox.resolve("deleted")));
      }
      if (scenario.paths().deleteTo() == Scenario.Via.INTO_DESTINATION) Files.createSymbolicLink(root.resolve("aside"), destination);
      for (Item i : scenario.existing()) {
        // a copy takes the source's time (so the destination holds it unchanged); anything else its own
        boolean copy = scenario.source().stream().anyMatch(s -> s.key().equals(i.key()) && s.seed() == i.seed());
        write(destination, i.key(), copy ? new Item(i.key(), i.size(), i.seed(), sourceTimes.get(i.key()), false) : i);
      }
      for (Item i : scenario.outside()) write(sandbox.resolve("outside"), i.key(), i);
      if (scenario.links().linkFolder()) Files.createSymbolicLink(destination.resolve("link"), sandbox.resolve("outside"));
      if (scenario.links().plantedTemp()) {
        Path victim = Files.writeString(sandbox.resolve("victim"), "a user's file beside the destination");
        String key = scenario.source().get(0).key();
        Path at = KeyPaths.tempPath(destination.resolve(key), scenario.jobName(), KeyPaths.keyNonce(key));
        Files.createDirectories(at.getParent());
        Files.createSymbolicLink(at, victim);
      }
    }
    if (scenario.job().manifest() != null) Files.write(root.resolve("manifest.keys"), scenario.job().manifest().keys(),
        StandardCharsets.UTF_8);
  }

  /** The source's modification times by relative key, as a listing shows them (a bucket sets its own). */
  private Map<String, Long> sourceTimes() throws IOException {
    Map<String, Long> times = new TreeMap<>();
    if (scenario.sourceKind() == SourceKind.DIRECTORY) {
      for (Item i : scenario.source()) times.put(i.key(), i.mtime());
      return times;
    }
    String prefix = new Oracle(scenario).fullPrefix();
    for (S3Object o : sourceClient().listObjectsV2Paginator(b -> b.bucket(sourceBucket).prefix(prefix)).contents()) {
      times.put(o.key().substring(prefix.length()), o.lastModified().toEpochMilli());
    }
    return times;
  }

  static byte[] bytes(int size, long seed) {
    byte[] b = new byte[size];
    new SplittableRandom(seed).nextBytes(b);
    return b;
  }

  static String digest(int size, long seed) {
    return sha256(bytes(size, seed));
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void put(S3Client s3, String bucket, String key, Item i) {
    put(s3, bucket, key, i, null);
  }

  /** @param storageClass the object's class (null: the store's default) */
  private static void put(S3Client s3, String bucket, String key, Item i, String storageClass) {
    byte[] bytes = bytes(i.size(), i.seed());
    if (!i.multipart() || bytes.length <= 5 << 20) {
      s3.putObject(b -> b.bucket(bucket).key(key).storageClass(storageClass), RequestBody.fromBytes(bytes));
      return;
    }
    String id = s3.createMultipartUpload(b -> b.bucket(bucket).key(key).storageClass(storageClass)).uploadId();
    List<CompletedPart> parts = new ArrayList<>();
    for (int off = 0, n = 1; off < bytes.length; off += 5 << 20, n++) {
      byte[] part = java.util.Arrays.copyOfRange(bytes, off, Math.min(bytes.length, off + (5 << 20)));
      int number = n;
      String etag = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(id).partNumber(number), RequestBody.fromBytes(part)).eTag();
      parts.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
    }
    s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(id).multipartUpload(m -> m.parts(parts)));
  }

  private static void write(Path under, String key, Item i) throws IOException {
    Path file = under.resolve(key);
    Files.createDirectories(file.getParent());
    Files.write(file, bytes(i.size(), i.seed()));
    Files.setLastModifiedTime(file, FileTime.fromMillis(i.mtime()));
  }

  /**
   * Changes the bytes of the destination's {@code key} behind the job's back, its size kept (a byte flipped, as a disk
   * or another writer might): a completion manifest must not prove it. False for an empty object, which has no byte.
   */
  boolean tamper(String key) throws IOException {
    if (!toBucket()) {
      Path file = destination.resolve(key);
      if (Files.isSymbolicLink(file) || !Files.isRegularFile(file) || Files.size(file) == 0) return false;
      byte[] bytes = Files.readAllBytes(file);
      bytes[bytes.length / 2] ^= 1;
      Files.write(file, bytes);
      return true;
    }
    String full = scenario.destinationPrefix() + key;
    byte[] bytes = destinationClient().getObjectAsBytes(b -> b.bucket(destinationBucket).key(full)).asByteArray();
    if (bytes.length == 0) return false;
    bytes[bytes.length / 2] ^= 1;
    destinationClient().putObject(b -> b.bucket(destinationBucket).key(full), RequestBody.fromBytes(bytes));
    return true;
  }

  /** The scenario replays histories into a versioned bucket (which {@code verify} does not compare: it compares current versions). */
  boolean replaysHistories() {
    return versioned();
  }

  // ---- snapshots ----

  /** The source's objects under its prefix (relative key → item as far as the oracle needs: size, time) and digests. */
  Oracle.Source source() throws IOException {
    Map<String, Item> items = new TreeMap<>();
    Map<String, String> digests = new TreeMap<>();
    if (versioned()) {
      String prefix = new Oracle(scenario).fullPrefix();
      current(sourceClient(), sourceBucket, prefix).forEach((key, digest) -> {
        Item listed = scenario.source().stream().filter(i -> i.key().equals(key)).findFirst().orElse(new Item(key, 0, 0, 0, false));
        items.put(key, new Item(key, listed.size(), 0, listed.mtime(), false));
        digests.put(key, digest);
      });
    } else if (scenario.sourceKind() == SourceKind.BUCKET) {
      String prefix = new Oracle(scenario).fullPrefix();
      for (S3Object o : sourceClient().listObjectsV2Paginator(b -> b.bucket(sourceBucket).prefix(prefix)).contents()) {
        String key = o.key().substring(prefix.length());
        items.put(key, new Item(key, o.size().intValue(), 0, o.lastModified().toEpochMilli(), false));
        digests.put(key, io.ferry.support.Buckets.sha256(sourceClient(), sourceBucket, o.key()));
      }
    } else {
      tree(sourceDirectory).forEach((key, digest) -> {
        try {
          Path p = sourceDirectory.resolve(key);
          if (digest.startsWith("link:") && job.copyLinks()) {
            String target = digest.substring("link:".length());
            long time = Files.getLastModifiedTime(p, java.nio.file.LinkOption.NOFOLLOW_LINKS).toMillis();
            items.put(linkKey(key), new Item(linkKey(key), target.getBytes(StandardCharsets.UTF_8).length, 0, time, false));
            digests.put(linkKey(key), linkDigest(target));
            return;
          }
          if (digest.startsWith("link:")) {
            // a link the job follows to a file is that file; any other stays the link it is (held, never copied)
            if (job.followLinks() && Files.isRegularFile(p)) digest = sha256(Files.readAllBytes(p));
            else p = null;
          }
          items.put(key, p == null ? new Item(key, 0, 0, 0, false)
              : new Item(key, (int) Files.size(p), 0, Files.getLastModifiedTime(p).toMillis(), false));
          digests.put(key, digest);
        } catch (IOException e) {
          // churned away between the walk and the look
        }
      });
    }
    return new Oracle.Source(items, digests);
  }

  /** The destination under its root or prefix (relative key → digest), temp files included. */
  Map<String, String> destination() throws IOException {
    if (!toBucket()) return tree(destination);
    if (!versioned()) return io.ferry.support.Buckets.digests(destinationClient(), destinationBucket, scenario.destinationPrefix());
    return current(destinationClient(), destinationBucket, scenario.destinationPrefix());
  }

  /** Everything beside the destination: the sandbox outside it, or the bucket's other keys and the bystander. */
  Map<String, String> outside() throws IOException {
    Map<String, String> all = new TreeMap<>();
    if (!toBucket()) {
      tree(sandbox).forEach((k, v) -> {
        if (!k.startsWith("destination/") && !k.startsWith("deleted/")) all.put(k, v);
      });
    } else {
      current(destinationClient(), destinationBucket, "").forEach((k, v) -> {
        if (!k.startsWith(scenario.destinationPrefix()) && !k.startsWith("trash/")) all.put(destinationBucket + "/" + k, v);
      });
      current(destinationClient(), bystander, "").forEach((k, v) -> all.put(bystander + "/" + k, v));
    }
    String prefix = new Oracle(scenario).fullPrefix();
    if (scenario.sourceKind() == SourceKind.BUCKET && !prefix.isEmpty()) {
      current(sourceClient(), sourceBucket, "").forEach((k, v) -> {
        if (!k.startsWith(prefix)) all.put(sourceBucket + "/" + k, v);
      });
    }
    return all;
  }

  /** Files and links under a directory, by relative path: a file's SHA-256, a link's target. */
  private static final String DANGLING_TARGET = "nowhere.bin";

  /** Where a source's link copied lands: at its name in a directory, at name.rclonelink in a bucket (rclone's form). */
  private String linkKey(String key) {
    return toBucket() ? key + ".rclonelink" : key;
  }

  /** What a link copied to {@code target} reads as at the destination: the link (as {@link #tree} shows it), or its target's bytes. */
  private String linkDigest(String target) {
    return toBucket() ? sha256(target.getBytes(StandardCharsets.UTF_8)) : "link:" + target;
  }

  static Map<String, String> tree(Path dir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    if (!Files.isDirectory(dir)) return out;
    Files.walkFileTree(dir, new java.nio.file.SimpleFileVisitor<>() {
      @Override
      public java.nio.file.FileVisitResult visitFile(Path p, java.nio.file.attribute.BasicFileAttributes a) throws IOException {
        String key = dir.relativize(p).toString();
        if (a.isSymbolicLink()) out.put(key, "link:" + Files.readSymbolicLink(p));
        else if (a.isRegularFile()) out.put(key, sha256(Files.readAllBytes(p)));
        return java.nio.file.FileVisitResult.CONTINUE;
      }

      @Override
      public java.nio.file.FileVisitResult visitFileFailed(Path p, IOException e) {
        return java.nio.file.FileVisitResult.CONTINUE; // churned away
      }
    });
    return out;
  }

  /** This job's temp files and markers left at the destination, and its open uploads. */
  List<String> leftovers() throws IOException {
    List<String> left = new ArrayList<>();
    if (toBucket()) {
      destinationClient().listMultipartUploads(b -> b.bucket(destinationBucket)).uploads().stream()
          .filter(u -> !versioned() || !servers.aborted().contains(u.uploadId())).forEach(u -> left.add("open upload of " + u.key()));
    } else {
      // files Ferry made (a link someone planted at a temp file's name is not one, and is replaced when that name is written)
      tree(destination).forEach((key, digest) -> {
        if (!digest.startsWith("link:") && KeyPaths.isTempNameOf(key.substring(key.lastIndexOf('/') + 1), scenario.jobName())) {
          left.add("temp file " + key);
        }
      });
    }
    return left;
  }

  /** What the job's ledger still names as open. */
  int ledgerOpen() throws IOException {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
    return new Ledger(Ledger.directory(root.resolve("reports").toString(), scenario.jobName(), conf), conf).read().opened().size();
  }

  // ---- the job file and the runs ----

  /** Before run {@code n}: the job's changes, and where the run is a delta pass, the writers' changes and their events. */
  void change(Scenario.Run run, int n) {
    if (run.partSize() > 0) job = job.withPartSize(run.partSize());
    if (run.streams() > 0) job = job.withStreams(run.streams());
    delta = scenario.deltas().on() && n > 0 && n < scenario.runs().size() - 1 ? write(n) : null;
  }

  /** The keys a run's exit 0 promises, where it is a delta pass; null for a full pass (every selected key). */
  Set<String> promised() {
    return delta == null ? null : delta.named();
  }

  /** Writers' changes at the source before delta pass {@code n}, and their events as delivered ({@link Scenario.Deltas}). */
  private Delta write(int n) {
    SplittableRandom w = new SplittableRandom(scenario.deltas().seed() + n);
    String prefix = new Oracle(scenario).fullPrefix();
    S3Client s3 = sourceClient();
    List<String> keys = new ArrayList<>(current(s3, sourceBucket, prefix).keySet());
    keys.removeAll(scenario.archived().keys()); // the suite's archive tier holds a key archived whatever is written to it
    java.util.Collections.sort(keys);
    List<String[]> changes = new ArrayList<>(); // key relative to the prefix, event name
    for (int i = 0; i < 2 && !keys.isEmpty(); i++) changes.add(new String[] {keys.remove(w.nextInt(keys.size())), "ObjectCreated:Put"});
    if (keys.size() > 1) changes.add(new String[] {keys.remove(w.nextInt(keys.size())), "ObjectRemoved:Delete"});
    changes.add(new String[] {"delta/" + n + ".bin", "ObjectCreated:Put"});
    List<String> events = new ArrayList<>();
    Set<String> named = new java.util.HashSet<>();
    for (String[] c : changes) {
      String full = prefix + c[0];
      if (c[1].startsWith("ObjectRemoved")) {
        s3.deleteObject(b -> b.bucket(sourceBucket).key(full));
      } else {
        Item item = new Item(c[0], 1 + w.nextInt(70_000), w.nextLong(), 0, false);
        versions.computeIfAbsent(c[0], k -> ConcurrentHashMap.newKeySet()).add(digest(item.size(), item.seed()));
        put(s3, sourceBucket, full, item);
      }
      events.add(event(sourceBucket, full, c[1]));
      named.add(c[0]);
    }
    if (w.nextBoolean()) events.add(events.get(w.nextInt(events.size()))); // delivered twice
    if (w.nextBoolean()) java.util.Collections.reverse(events); // out of order
    if (w.nextInt(3) == 0) { // one lost: the last run, a full pass, repairs what it changed
      String lost = events.remove(w.nextInt(events.size()));
      if (events.stream().noneMatch(lost::equals)) named.removeIf(k -> lost.contains("\"key\": \"" + URLEncoder.encode(prefix + k,
          StandardCharsets.UTF_8) + "\""));
    }
    if (w.nextBoolean()) events.add(event(sourceBucket, "outside-the-prefix/" + n + ".bin", "ObjectCreated:Put"));
    if (w.nextBoolean()) events.add(event("another-bucket", prefix + "a.bin", "ObjectCreated:Put"));
    try {
      return new Delta(Files.write(root.resolve("events-" + n + ".jsonl"), events), named);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** An event as AWS writes it: the key form-encoded, a sequencer that grows with each event. */
  private String event(String bucket, String key, String name) {
    return "{\"Records\": [{\"eventVersion\": \"2.1\", \"eventSource\": \"aws:s3\", \"eventName\": \"" + name + "\", \"s3\":"
        + " {\"bucket\": {\"name\": \"" + bucket + "\"}, \"object\": {\"key\": \"" + URLEncoder.encode(key, StandardCharsets.UTF_8)
        + "\", \"sequencer\": \"" + Long.toHexString(++sequencer).toUpperCase(java.util.Locale.ROOT) + "\"}}}]}";
  }

  private Path jobFile() throws IOException {
    StringBuilder h = new StringBuilder("ferry {\n  job.name = \"" + scenario.jobName() + "\"\n");
    String sourceEndpoint = versioned() ? servers.toMock().endpoint() : servers.toA().endpoint();
    if (scenario.sourceKind() == SourceKind.BUCKET) {
      h.append("  source { endpoint = \"").append(sourceEndpoint).append("\", bucket = \"").append(sourceBucket).append("\", prefix = \"")
          .append(scenario.sourcePrefix()).append("\"\n    credentials { access-key-id = \"").append(servers.a().identity())
          .append("\", secret-access-key = ${?SRC_SECRET} }").append(versioned() ? ", versions = all" : "").append(" }\n");
    } else {
      h.append("  source { type = file, path = \"").append(sourceDirectory).append("\", symlinks = ")
          .append(job.copyLinks() ? "copy" : job.followLinks() ? "follow" : "report").append(" }\n");
    }
    if (toBucket()) {
      boolean same = scenario.destinationKind() == DestinationKind.SAME_SERVICE;
      S3Backend server = same ? servers.a() : servers.b();
      h.append("  destination { type = s3, endpoint = \"").append(same || versioned() ? sourceEndpoint : servers.toB().endpoint())
          .append("\", bucket = \"").append(destinationBucket).append("\", prefix = \"").append(scenario.destinationPrefix())
          .append("\"\n    credentials { access-key-id = \"").append(versioned() ? servers.a().identity() : server.identity())
          .append("\", secret-access-key = ${?DST_SECRET} }\n");
      if (job.serverSideNever() || versioned() && !same) h.append("    server-side-copy = never\n");
      if (job.checksums()) h.append("    checksum-mode = when-supported\n");
      if (!job.copyTags()) h.append("    copy-tags = false\n");
      if (job.keepClass()) h.append("    storage-class = keep\n");
      if (job.deleteTo()) h.append("    delete-to = \"trash/\"\n");
      h.append("  }\n");
    } else {
      Path named = switch (scenario.paths().destination()) {
        case LINK -> root.resolve("destination-link");
        case INTO_SOURCE -> root.resolve("into-source/dir");
        default -> destination;
      };
      Path aside = switch (scenario.paths().deleteTo()) {
        case LINK -> root.resolve("deleted-link");
        case INTO_DESTINATION -> root.resolve("aside/old");
        default -> sandbox.resolve("deleted");
      };
      h.append("  destination { path = \"").append(named).append("\"");
      if (job.deleteTo()) h.append(", delete-to = \"").append(aside).append("\"");
      if (job.directIo()) h.append(", direct-io = true");
      h.append(" }\n");
    }
    if (!job.prefixRates()) h.append("  limits.prefix-rates = false\n");
    if (delta != null) h.append("  source { changes = events, events.files = [\"").append(delta.file()).append("\"] }\n");
    h.append("  destination { delete-extraneous = ").append(job.deleteExtraneous()).append(", max-delete = \"").append(job.maxDelete())
        .append("\" }\n");
    h.append("  source { includes = [\"").append(Scenario.INCLUDES.get(job.include())).append("\"]");
    String exclude = Scenario.EXCLUDES.get(job.exclude()).glob();
    h.append(", excludes = [").append(exclude.isEmpty() ? "" : "\"" + exclude + "\"").append("]");
    h.append(", prefixes = [").append(String.join(", ", job.prefixes().stream().map(p -> "\"" + p + "\"").toList())).append("]");
    h.append(", min-size = ").append(job.minSize());
    if (job.maxSize() >= 0) h.append(", max-size = ").append(job.maxSize());
    if (job.modifiedAfter() >= 0)
        h.append(", modified-after = \"").append(java.time.Instant.ofEpochMilli(job.modifiedAfter())).append("\"");
    if (job.manifest() != null) {
      h.append(", manifest = \"").append(root.resolve("manifest.keys")).append("\", manifest-complete = ").append(job.manifest()
          .complete());
    }
    h.append(" }\n");
    if (!scenario.archived().keys().isEmpty()) {
      h.append("  source { archived = ").append(scenario.archived().policy());
      if (scenario.archived().restores()) h.append(", restore { wait = 90s, poll = 200ms }");
      h.append(" }\n");
    }
    h.append("  plan { part-size = ").append(job.partSize()).append(", listing-page-keys = ").append(job.pageKeys()).append(" }\n");
    h.append("  copy { streams-per-task = ").append(job.streams() == 0 ? "auto" : String.valueOf(job.streams()))
        .append(", skip-unchanged = ").append(job.skipUnchanged()).append(", buffer-size = ").append(scenario.bufferSize())
        .append(", retries = 3, backoff = 20ms, max-backoff = 200ms, stall-timeout = 10s }\n");
    h.append("  report.path = \"").append(root.resolve("reports")).append("\"\n  spark.master = \"local[2]\"\n}\n");
    return Files.writeString(root.resolve("job.conf"), h.toString());
  }

  private Map<String, String> secrets() {
    S3Backend destinationServer = scenario.destinationKind() == DestinationKind.SAME_SERVICE ? servers.a() : servers.b();
    return Map.of("SRC_SECRET", servers.a().secret(), "DST_SECRET", destinationServer.secret());
  }

  /** Ferry in this JVM, on the shared Spark context: {@code ferry <command> job.conf}. */
  Outcome inProcess(String... command) throws IOException {
    List<String> args = new ArrayList<>(List.of(command));
    args.add(jobFile().toString());
    secrets().forEach((name, value) -> args.add("-Dferry." + (name.startsWith("SRC") ? "source" : "destination")
        + ".credentials.secret-access-key=" + value));
    if (scenario.sourceKind() == SourceKind.DIRECTORY) args.removeIf(a -> a.startsWith("-Dferry.source.credentials"));
    if (!toBucket()) args.removeIf(a -> a.startsWith("-Dferry.destination.credentials"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    int code = Ferry.run(args.toArray(String[]::new), print, print);
    return new Outcome(code, out.toString(StandardCharsets.UTF_8));
  }

  /** Ferry in a JVM of its own, killed with SIGKILL {@code millis} after it started (or left to finish first). */
  Outcome killed(long millis) throws Exception {
    Path log = root.resolve("killed-" + System.nanoTime() + ".log");
    Process p = FerryProcess.start(jobFile(), log, secrets(), "migrate");
    boolean finished = p.waitFor(millis, TimeUnit.MILLISECONDS);
    if (!finished) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
    return new Outcome(finished ? p.exitValue() : null, Files.readString(log));
  }

  // ---- faults ----

  /** Arms a run's faults on the proxies and the source; {@link #disarm} ends them. */
  void arm(List<Fault> faults) {
    unstable.clear();
    running.set(true);
    for (Fault f : faults) {
      if (f instanceof Fault.Burst b) {
        proxy(b.atSource()).inject(FaultProxy.Kind.valueOf(b.kind()), new FaultProxy.Fault.Status(b.status(), b.code()), b.times());
      } else if (f instanceof Fault.Storm s) {
        storm(proxy(s.atSource()), FaultProxy.Kind.valueOf(s.kind()), s.millis());
      } else if (f instanceof Fault.Truncated t) {
        proxy(true).inject(FaultProxy.Kind.GET_OBJECT, new FaultProxy.Fault.ResetAfterResponseBytes(t.bytes()), t.times());
      } else if (f instanceof Fault.FlipDown d) {
        proxy(true).inject(FaultProxy.Kind.GET_OBJECT, new FaultProxy.Fault.FlipResponseByte(d.offset()), 1);
      } else if (f instanceof Fault.FlipUp u) {
        proxy(false).inject(FaultProxy.Kind.valueOf(u.kind()), new FaultProxy.Fault.FlipRequestByte(u.offset()), 1);
      } else if (f instanceof Fault.LostAnswer l) {
        proxy(false).inject(FaultProxy.Kind.valueOf(l.kind()), new FaultProxy.Fault.LoseResponse(), 1);
      } else if (f instanceof Fault.Mutate m) {
        mutate(m);
      } else if (f instanceof Fault.Rewrite w) {
        background(() -> rewrite(w));
      } else if (f instanceof Fault.Churn) {
        churn();
      } else if (f instanceof Fault.Refuse refuse) {
        String path = "/" + destinationBucket + "/" + URLEncoder.encode(scenario.destinationPrefix() + refuse.key(), StandardCharsets.UTF_8)
            .replace("+", "%20").replace("%2F", "/");
        java.util.concurrent.atomic.AtomicInteger writes = new java.util.concurrent.atomic.AtomicInteger();
        Set<FaultProxy.Kind> kinds = Set.of(FaultProxy.Kind.PUT_OBJECT, FaultProxy.Kind.COPY_OBJECT, FaultProxy.Kind.CREATE_UPLOAD);
        servers.mockRules().set((kind, target, headers) -> kinds.contains(kind) && target.split("\\?")[0].equals(path)
            && writes.incrementAndGet() > refuse.after() ? new FaultProxy.Fault.Status(403, "AccessDenied") : null);
      }
    }
  }

  /** Every request through {@code proxy} answered 503 for {@code millis}, from its first request of {@code kind}. */
  private void storm(FaultProxy proxy, FaultProxy.Kind kind, long millis) {
    AtomicBoolean started = new AtomicBoolean();
    proxy.inject(kind, new FaultProxy.Fault.Before(() -> {
      if (!started.compareAndSet(false, true)) return;
      proxy.injectAll(new FaultProxy.Fault.Status(503, "SlowDown"));
      background(() -> {
        sleep(millis);
        proxy.clear();
      });
    }), 1);
  }

  /** The source object overwritten or deleted when its first GET arrives, before the server answers it. */
  private void mutate(Fault.Mutate m) {
    String full = new Oracle(scenario).fullPrefix() + m.key();
    String path = "/" + sourceBucket + "/" + URLEncoder.encode(full, StandardCharsets.UTF_8).replace("+", "%20").replace("%2F", "/");
    proxy(true).inject(FaultProxy.Kind.GET_OBJECT, path, new FaultProxy.Fault.Before(() -> {
      unstable.add(m.key());
      if (m.delete()) {
        sourceClient().deleteObject(b -> b.bucket(sourceBucket).key(full));
      } else {
        versions.computeIfAbsent(m.key(), k -> ConcurrentHashMap.newKeySet()).add(digest(m.size(), m.seed()));
        sourceClient().putObject(b -> b.bucket(sourceBucket).key(full), RequestBody.fromBytes(bytes(m.size(), m.seed())));
      }
    }), 1);
  }

  /** A file of the directory source rewritten in place (its size kept) during the run. */
  private void rewrite(Fault.Rewrite w) {
    sleep(w.millis());
    Path file = sourceDirectory.resolve(w.key());
    unstable.add(w.key());
    boolean linked = w.key().equals(scenario.sourceLinks().toFile()); // the link to it reads what it holds
    if (linked) unstable.add(Scenario.SourceLinks.TO_FILE);
    try {
      byte[] bytes = bytes((int) Files.size(file), w.seed());
      versions.computeIfAbsent(w.key(), k -> ConcurrentHashMap.newKeySet()).add(sha256(bytes));
      if (linked) versions.computeIfAbsent(Scenario.SourceLinks.TO_FILE, k -> ConcurrentHashMap.newKeySet()).add(sha256(bytes));
      Files.write(file, bytes);
    } catch (IOException e) {
      // gone
    }
  }

  /** Files of the directory source created and removed over and over until the run ends. */
  private void churn() {
    List<String> keys = List.of("dir/zz.tmp", "churn.bin");
    for (String key : keys) {
      unstable.add(key);
      Set<String> held = versions.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet());
      held.add(sha256("churning".getBytes(StandardCharsets.UTF_8)));
      held.add(sha256(new byte[0])); // created empty, then written
    }
    background(() -> {
      while (running.get()) {
        for (String key : keys) {
          try {
            Path file = sourceDirectory.resolve(key);
            Files.createDirectories(file.getParent());
            Files.writeString(file, "churning");
            Files.deleteIfExists(file);
          } catch (IOException e) {
            // listed meanwhile: again
          }
        }
      }
    });
  }

  private FaultProxy proxy(boolean atSource) {
    if (versioned()) return servers.toMock();
    return atSource || scenario.destinationKind() == DestinationKind.SAME_SERVICE ? servers.toA() : servers.toB();
  }

  private void background(Runnable body) {
    Thread t = new Thread(body, "invariants-fault");
    t.setDaemon(true);
    t.start();
    background.add(t);
  }

  /** Ends the run's faults: waits for its background changes, clears the proxies. */
  void disarm() throws InterruptedException {
    running.set(false);
    for (Thread t : background) t.join(10_000);
    background.clear();
    servers.toA().clear();
    servers.toB().clear();
    servers.toMock().clear();
    servers.mockRules().set(null);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The directory destination's link folder target and victim are in the sandbox: their state is part of {@link #outside}. */
  boolean linkStillALink() {
    return !scenario.links().linkFolder() || Files.isSymbolicLink(destination.resolve("link"));
  }

  static Set<String> keysOf(Map<String, String> m) {
    return new TreeSet<>(m.keySet());
  }

  static boolean exists(Path p) {
    return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
  }
}
