package io.ferry.store.s3;

import io.ferry.config.BucketConfig;
import io.ferry.config.DirectoryConfig.Symlinks;
import io.ferry.store.Archive;
import io.ferry.store.ETags;
import io.ferry.store.ListCounts;
import io.ferry.store.Lister;
import io.ferry.store.Shard;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import io.ferry.store.listing.KeySpace;
import io.ferry.store.retry.Retrier;
import io.ferry.store.s3.http.S3Errors;
import io.ferry.store.s3.http.SignedRequests;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Lists a bucket under a prefix with ListObjectsV2 pages (1,000 keys each), handing each object on as its page
 * arrives; a shard starts with {@code start-after} and stops at its last key, or (not recursive) lists a folder's own
 * objects by delimiter. Keys ending in '/' with no bytes are
 * folder markers, not objects: they are counted and left out. An object of a class that may be archived
 * ({@link Archive}) is asked a HEAD, so that the plan knows whether its bytes can be read now.
 */
final class S3Lister implements Lister {
  private final S3Client client;
  private final SignedRequests requests;
  private final String bucket;
  private final String prefix;
  private final Retrier retrier;

  private final boolean archiveStates;
  private final boolean versions;
  private final boolean folders;
  private static final String LINK_SUFFIX = Symlinks.LINK_SUFFIX;

  /**
   * Lists {@code config}'s bucket under its prefix: every version of each key and its delete markers where it lists
   * versions (ListObjectVersions, each key's whole history at once); folder markers as objects where it keeps folders.
   *
   * @param source a source's listing: objects that may be archived are asked a HEAD (a destination's need not be), and
   *     {@code name.rclonelink} objects are listed as the links they keep where the job copies links (into a directory)
   */
  S3Lister(S3Client client, SignedRequests requests, BucketConfig config, Retrier retrier, boolean source) {
    this.client = client;
    this.requests = requests;
    this.bucket = config.bucket();
    this.prefix = config.prefix();
    this.retrier = retrier;
    this.archiveStates = source && !config.versions();
    this.versions = config.versions();
    this.folders = config.folders();
    this.links = source && config.links();
  }

  /** Whether {@code name.rclonelink} objects are listed as the links rclone keeps in them, at {@code name}. */
  private final boolean links;

  /** A shard per prefix: the listing splits them where they prove large ({@link KeySpace}), in its rounds. */
  @Override
  public List<Shard> shards(List<String> prefixes, int target) {
    return (prefixes.isEmpty() ? List.of(prefix) : prefixes.stream().map(p -> prefix + p).toList()).stream().map(Shard::all).toList();
  }

  @Override
  public ListCounts list(Shard shard, Consumer<StoreObject> consumer) throws IOException {
    return listSome(shard, 0, consumer).counts();
  }

  /** Pages one after another, each retried by the job's policy (a listing is many requests; it resumes at its page). */
  @Override
  public Listed listSome(Shard shard, int pages, Consumer<StoreObject> consumer) throws IOException {
    return listSome(shard, pages, KeySpace.PAGE, consumer);
  }

  @Override
  public Listed listSome(Shard shard, int pages, int pageKeys, Consumer<StoreObject> consumer) throws IOException {
    long[] counts = new long[3]; // listed, folder markers, requests
    if (versions) {
      List<Shard> rest = KeySpace.list(shard, pages, new VersionPages((under, keyMarker, versionMarker, max, level) -> {
        counts[2]++;
        return versions(under, keyMarker, versionMarker, max, level);
      }), history -> history.versions(prefix, counts, consumer));
      return new Listed(new ListCounts(counts[0], counts[0] - counts[1], counts[1], 0, counts[2]), rest);
    }
    KeySpace.Pages<ObjectListing.Entry> store = new KeySpace.Pages<>() {
      @Override
      public KeySpace.Page<ObjectListing.Entry> page(String under, String after, String token, int max, boolean level)
          throws IOException {
        counts[2]++;
        ObjectListing.Page page = S3Lister.this.page(under, after, max, token, level);
        return new KeySpace.Page<>(page.entries(), page.prefixes(), page.nextToken());
      }

      @Override
      public String key(ObjectListing.Entry entry) {
        return entry.key();
      }
    };
    List<Shard> rest = list(shard, pages, pageKeys, store, counts, consumer);
    return new Listed(new ListCounts(counts[0], counts[0] - counts[1], counts[1], 0, counts[2]), rest);
  }

  private List<Shard> list(Shard shard, int pages, int pageKeys, KeySpace.Pages<ObjectListing.Entry> store, long[] counts,
      Consumer<StoreObject> consumer) throws IOException {
    return KeySpace.list(shard, pages, pageKeys, store, o -> {
      counts[0]++;
      if (o.key().endsWith("/") && o.size() == 0 && (!folders || o.key().length() <= prefix.length())) {
        counts[1]++;
        return;
      }
      String relative = o.key().substring(prefix.length());
      StoreObject listed = links && relative.endsWith(LINK_SUFFIX) && relative.length() > LINK_SUFFIX.length()
          ? StoreObject.keptLink(o.key(), relative.substring(0, relative.length() - LINK_SUFFIX.length()), o.size(), o.etag(), o.millis())
          : new StoreObject(o.key(), relative, o.size(), o.etag(), o.millis());
      if (archiveStates && Archive.mayBeArchived(o.storageClass())) listed = archiveState(listed, o.storageClass());
      consumer.accept(listed);
    });
  }

  /**
   * A key's versions and delete markers, newest first, as ListObjectVersions gave them: a listing hands on whole
   * histories only, so that a shard split after a key never leaves part of its history to no shard.
   */
  record History(String key, List<VersionListing.Entry> newestFirst) {
    /** Each version as an object, its age counted from the newest, folder markers left out. */
    void versions(String prefix, long[] counts, Consumer<StoreObject> consumer) {
      for (int age = 0; age < newestFirst.size(); age++) {
        VersionListing.Entry e = newestFirst.get(age);
        counts[0]++;
        if (key.endsWith("/") && e.size() == 0) {
          counts[1]++;
          continue;
        }
        consumer.accept(new StoreObject(key, key.substring(prefix.length()), e.size(), e.etag(), e.millis())
            .asVersion(age, e.marker(), e.versionId()));
      }
    }
  }

  /**
   * ListObjectVersions pages as whole key histories: a page cut inside a key's history ends before that key, and the
   * next starts at it again (read anew: a few versions twice); a key whose history alone fills pages is read to its end.
   */
  static final class VersionPages implements KeySpace.Pages<History> {
    /** One ListObjectVersions request. */
    interface Fetch {
      VersionListing.Page fetch(String under, String keyMarker, String versionMarker, int max, boolean level) throws IOException;
    }

    private final Fetch store;

    VersionPages(Fetch store) {
      this.store = store;
    }

    @Override
    public KeySpace.Page<History> page(String under, String after, String token, int max, boolean level) throws IOException {
      // a token is the key to start after: the last whole history of the page before
      String marker = token != null ? token : after;
      VersionListing.Page page = store.fetch(under, marker, null, max, level);
      List<History> histories = histories(page.entries(), page.interleaved());
      if (!page.truncated()) return new KeySpace.Page<>(histories, page.prefixes(), null);
      if (page.nextKeyMarker() == null || page.nextKeyMarker().isEmpty()) {
        // where it ended cannot be told, and a guess could pass over the rest of a key's history
        throw new StoreFailure(StoreFailure.Kind.FATAL, "the store answered a truncated ListObjectVersions page without"
            + " NextKeyMarker, so the listing cannot go on from it", null);
      }
      if (histories.isEmpty()) return new KeySpace.Page<>(histories, page.prefixes(), page.nextKeyMarker());
      if (histories.size() > 1) {
        String cut = page.nextKeyMarker();
        histories = histories.stream().filter(h -> !h.key().equals(cut)).toList();
        return new KeySpace.Page<>(histories, page.prefixes(), histories.get(histories.size() - 1).key());
      }
      // one key's history fills the page: read on until it ends
      History one = histories.get(0);
      List<VersionListing.Entry> all = new ArrayList<>(page.entries());
      Set<String> folders = new LinkedHashSet<>(page.prefixes()); // every page's: the first's too
      boolean interleaved = page.interleaved();
      boolean more = true;
      while (page.truncated() && one.key().equals(page.nextKeyMarker())) {
        page = store.fetch(under, page.nextKeyMarker(), page.nextVersionIdMarker(), Math.max(max, KeySpace.PAGE), level);
        boolean others = false;
        for (VersionListing.Entry e : page.entries()) {
          if (e.key().equals(one.key())) {
            all.add(e);
          } else {
            others = true;
          }
        }
        folders.addAll(page.prefixes());
        more = page.truncated() || others;
      }
      all.removeIf(e -> !e.key().equals(one.key()));
      return new KeySpace.Page<>(List.of(new History(one.key(), newestFirst(all, interleaved))), List.copyOf(folders),
          more ? one.key() : null);
    }

    @Override
    public String key(History entry) {
      return entry.key();
    }
  }

  /** One ListObjectVersions request, answered in its own order ({@link VersionListing}). */
  private VersionListing.Page versions(String under, String keyMarker, String versionMarker, int max, boolean level)
      throws IOException {
    Map<String, String> query = query(under, max, level);
    query.put("versions", "");
    if (!keyMarker.isEmpty()) query.put("key-marker", keyMarker);
    if (versionMarker != null) query.put("version-id-marker", versionMarker);
    return retrier.call(() -> VersionListing.parse(S3Errors.translated(() -> requests.getBucket(bucket, query))));
  }

  /** A page's entries grouped by key, in the page's order (each key's entries are together, newest first). */
  private static List<History> histories(List<VersionListing.Entry> entries, boolean interleaved) {
    LinkedHashMap<String, List<VersionListing.Entry>> byKey = new LinkedHashMap<>();
    for (VersionListing.Entry e : entries) byKey.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e);
    List<History> out = new ArrayList<>();
    byKey.forEach((k, v) -> out.add(new History(k, newestFirst(v, interleaved))));
    return out;
  }

  /**
   * A key's entries newest first: as listed, where the answer lists the two kinds together in the order they were
   * written ({@code interleaved}: S3's ListVersionsResult). An answer that lists them apart (S3Mock's, which also gives
   * a marker the time of the version it covers) is read by time: the latest first, then newest first, a marker before
   * a version of its time.
   */
  static List<VersionListing.Entry> newestFirst(List<VersionListing.Entry> listed, boolean interleaved) {
    if (interleaved) return listed;
    List<VersionListing.Entry> byTime = new ArrayList<>(listed);
    byTime.sort(Comparator.comparing(VersionListing.Entry::latest).reversed()
        .thenComparing(Comparator.comparingLong(VersionListing.Entry::millis).reversed())
        .thenComparing(VersionListing.Entry::marker, Comparator.reverseOrder()));
    return byTime;
  }

  /** What both listings ask: a page of up to {@code max} keys under {@code under}, URL-encoded, by folder where {@code level}. */
  private static Map<String, String> query(String under, int max, boolean level) {
    Map<String, String> query = new LinkedHashMap<>();
    query.put("prefix", under);
    query.put("max-keys", Integer.toString(max));
    query.put("encoding-type", "url");
    if (level) query.put("delimiter", "/");
    return query;
  }

  /**
   * One ListObjectsV2 request, its answer read by {@link ObjectListing}.
   *
   * @param level by delimiter '/': the objects directly under {@code under}, and its folders
   */
  private ObjectListing.Page page(String under, String after, int max, String token, boolean level) throws IOException {
    Map<String, String> query = query(under, max, level);
    query.put("list-type", "2");
    if (token != null) {
      query.put("continuation-token", token);
    } else if (!after.isEmpty()) {
      query.put("start-after", after);
    }
    return retrier.call(() -> ObjectListing.parse(S3Errors.translated(() -> requests.getBucket(bucket, query))).under(under, level));
  }

  /**
   * A listed object of a class that may be archived, with what a HEAD says of it now: archived, restoring, or readable
   * (a restored copy); as listed when it is gone since, or when the HEAD fails (its GET then fails with the cause, and
   * only that object fails).
   */
  private StoreObject archiveState(StoreObject listed, String listedClass) {
    try {
      HeadObjectResponse head = head(listed.key());
      return head == null ? listed : withArchiveState(listed, head, listedClass);
    } catch (IOException e) {
      return listed;
    }
  }

  /** @param listedClass the class a listing gave, for a HEAD that names none (STANDARD's is left out; some stores leave out all) */
  private static StoreObject withArchiveState(StoreObject o, HeadObjectResponse head, String listedClass) {
    String storageClass = head.storageClassAsString() != null ? head.storageClassAsString() : listedClass;
    return switch (Archive.of(storageClass, head.restore(), head.archiveStatusAsString())) {
      case READABLE -> o;
      case ARCHIVED -> StoreObject.archived(o.key(), o.relativeKey(), o.size(), o.etag(), o.lastModifiedMillis(), storageClass, false);
      case RESTORING -> StoreObject.archived(o.key(), o.relativeKey(), o.size(), o.etag(), o.lastModifiedMillis(), storageClass, true);
    };
  }

  @Override
  public StoreObject stat(String key) throws IOException {
    HeadObjectResponse head = head(key);
    if (head == null) return null;
    StoreObject o = new StoreObject(key, key.startsWith(prefix) ? key.substring(prefix.length()) : key, head.contentLength(),
        ETags.unquote(head.eTag()), head.lastModified() == null ? 0 : head.lastModified().toEpochMilli());
    return withArchiveState(o, head, null);
  }

  private HeadObjectResponse head(String key) throws IOException {
    return retrier.call(() -> S3Errors.translated(() -> Optional.of(client.headObject(b -> b.bucket(bucket).key(key))),
        e -> e instanceof NoSuchKeyException ? Optional.of(Optional.<HeadObjectResponse>empty()) : Optional.empty())).orElse(null);
  }

  @Override
  public StoreObject find(String relativeKey) throws IOException {
    return stat(prefix + relativeKey);
  }
}
