package io.ferry.store.s3;

import io.ferry.store.Archive;
import io.ferry.store.ETags;
import io.ferry.store.listing.KeySpace;
import io.ferry.store.ListCounts;
import io.ferry.store.Lister;
import io.ferry.store.retry.Retrier;
import io.ferry.store.Shard;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Lists a bucket under a prefix with ListObjectsV2 pages (1,000 keys each), handing each object on as its page
 * arrives; a shard starts with {@code start-after} and stops at its last key, or (not recursive) lists a folder's own
 * objects by delimiter. Keys ending in '/' with no bytes are
 * folder markers, not objects: they are counted and left out. An object of a class that may be archived
 * ({@link Archive}) is asked a HEAD, so that the plan knows whether its bytes can be read now.
 */
final class S3Lister implements Lister {
  private final S3Client client;
  private final String bucket;
  private final String prefix;
  private final Retrier retrier;

  private final boolean archiveStates;
  private final boolean versions;

  /**
   * @param archiveStates whether objects that may be archived are asked a HEAD (a source's are; a destination's need not be)
   * @param versions every version of each key and its delete markers are listed (ListObjectVersions), each key's whole
   *     history at once
   */
  S3Lister(S3Client client, String bucket, String prefix, Retrier retrier, boolean archiveStates, boolean versions) {
    this.client = client;
    this.bucket = bucket;
    this.prefix = prefix;
    this.retrier = retrier;
    this.archiveStates = archiveStates && !versions;
    this.versions = versions;
  }

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
    long[] counts = new long[3]; // listed, folder markers, requests
    if (versions) {
      List<Shard> rest = KeySpace.list(shard, pages, new VersionPages((under, keyMarker, versionMarker, max, level) -> {
        counts[2]++;
        return versions(under, keyMarker, versionMarker, max, level);
      }), history -> history.versions(prefix, counts, consumer));
      return new Listed(new ListCounts(counts[0], counts[0] - counts[1], counts[1], 0, counts[2]), rest);
    }
    KeySpace.Pages<S3Object> store = new KeySpace.Pages<>() {
      @Override
      public KeySpace.Page<S3Object> page(String under, String after, String token, int max, boolean level) throws IOException {
        counts[2]++;
        ListObjectsV2Response page = S3Lister.this.page(under, after, max, token, level);
        return new KeySpace.Page<>(page.contents(), page.commonPrefixes().stream().map(CommonPrefix::prefix).toList(),
            Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null);
      }

      @Override
      public String key(S3Object entry) {
        return entry.key();
      }
    };
    List<Shard> rest = list(shard, pages, store, counts, consumer);
    return new Listed(new ListCounts(counts[0], counts[0] - counts[1], counts[1], 0, counts[2]), rest);
  }

  private List<Shard> list(Shard shard, int pages, KeySpace.Pages<S3Object> store, long[] counts, Consumer<StoreObject> consumer)
      throws IOException {
    return KeySpace.list(shard, pages, store, o -> {
      counts[0]++;
      if (o.key().endsWith("/") && o.size() == 0) {
        counts[1]++;
        return;
      }
      StoreObject listed = new StoreObject(o.key(), o.key().substring(prefix.length()), o.size(), ETags.unquote(o.eTag()),
          o.lastModified() == null ? 0 : o.lastModified().toEpochMilli());
      if (archiveStates && Archive.mayBeArchived(o.storageClassAsString())) listed = archiveState(listed, o.storageClassAsString());
      consumer.accept(listed);
    });
  }

  /**
   * A key's versions and delete markers, newest first, as ListObjectVersions gave them: a listing hands on whole
   * histories only, so that a shard split after a key never leaves part of its history to no shard.
   */
  record History(String key, List<ObjectVersion> versions, List<DeleteMarkerEntry> markers) {
    /** Each version as an object, newest first (age 0), folder markers left out. */
    void versions(String prefix, long[] counts, Consumer<StoreObject> consumer) {
      List<StoreObject> newestFirst = merged(prefix);
      for (int age = 0; age < newestFirst.size(); age++) {
        StoreObject o = newestFirst.get(age);
        counts[0]++;
        if (key.endsWith("/") && o.size() == 0) {
          counts[1]++;
          continue;
        }
        consumer.accept(StoreObject.ofVersion(o.key(), o.relativeKey(), o.size(), o.etag(), o.lastModifiedMillis(), age,
            o.isDeleteMarker(), o.versionId()));
      }
    }

    /**
     * The two kinds merged newest first, as the store lists each (the SDK parts them): the latest first, then by time.
     * Where a version and a marker have one time (stores keep seconds, or give a marker the time of what it covers) the
     * kinds alternate: a marker goes over a version, a version over a marker, as a history of writes and deletes does.
     */
    List<StoreObject> merged(String prefix) {
      List<StoreObject> objects = new java.util.ArrayList<>();
      for (ObjectVersion v : versions) {
        objects.add(StoreObject.ofVersion(key, key.substring(prefix.length()), v.size() == null ? 0 : v.size(), ETags.unquote(v.eTag()),
            millis(v.lastModified()), 0, false, v.versionId() == null ? "null" : v.versionId()));
      }
      List<StoreObject> deletes = new java.util.ArrayList<>();
      for (DeleteMarkerEntry m : markers) {
        deletes.add(StoreObject.ofVersion(key, key.substring(prefix.length()), 0, "", millis(m.lastModified()), 0, true,
            m.versionId() == null ? "null" : m.versionId()));
      }
      boolean markerLatest = markers.stream().anyMatch(m -> Boolean.TRUE.equals(m.isLatest()));
      List<StoreObject> out = new java.util.ArrayList<>();
      int v = 0;
      int d = 0;
      while (v < objects.size() || d < deletes.size()) {
        boolean marker;
        if (v == objects.size()) {
          marker = true;
        } else if (d == deletes.size()) {
          marker = false;
        } else if (out.isEmpty()) {
          marker = markerLatest;
        } else {
          long tv = objects.get(v).lastModifiedMillis();
          long td = deletes.get(d).lastModifiedMillis();
          marker = td != tv ? td > tv : !out.get(out.size() - 1).isDeleteMarker();
        }
        out.add(marker ? deletes.get(d++) : objects.get(v++));
      }
      return out;
    }

    private static long millis(java.time.Instant t) {
      return t == null ? 0 : t.toEpochMilli();
    }
  }

  /**
   * ListObjectVersions pages as whole key histories: a page cut inside a key's history ends before that key, and the
   * next starts at it again (read anew: a few versions twice); a key whose history alone fills pages is read to its end.
   */
  static final class VersionPages implements KeySpace.Pages<History> {
    /** One ListObjectVersions request. */
    interface Fetch {
      ListObjectVersionsResponse fetch(String under, String keyMarker, String versionMarker, int max, boolean level) throws IOException;
    }

    private final Fetch store;

    VersionPages(Fetch store) {
      this.store = store;
    }

    private ListObjectVersionsResponse versions(String under, String keyMarker, String versionMarker, int max, boolean level)
        throws IOException {
      return store.fetch(under, keyMarker, versionMarker, max, level);
    }

    @Override
    public KeySpace.Page<History> page(String under, String after, String token, int max, boolean level) throws IOException {
      // a token is the key to start after: the last whole history of the page before
      String marker = token != null ? token : after;
      ListObjectVersionsResponse page = versions(under, marker, null, max, level);
      List<History> histories = histories(page);
      List<String> folders = page.commonPrefixes().stream().map(CommonPrefix::prefix).toList();
      if (!Boolean.TRUE.equals(page.isTruncated())) return new KeySpace.Page<>(histories, folders, null);
      if (histories.isEmpty()) return new KeySpace.Page<>(histories, folders, page.nextKeyMarker());
      if (histories.size() > 1) {
        String cut = page.nextKeyMarker();
        histories = histories.stream().filter(h -> !h.key().equals(cut)).toList();
        return new KeySpace.Page<>(histories, folders, histories.get(histories.size() - 1).key());
      }
      // one key's history fills the page: read on until it ends
      History one = histories.get(0);
      List<ObjectVersion> versions = new java.util.ArrayList<>(one.versions());
      List<DeleteMarkerEntry> markers = new java.util.ArrayList<>(one.markers());
      boolean more = true;
      while (Boolean.TRUE.equals(page.isTruncated()) && one.key().equals(page.nextKeyMarker())) {
        page = versions(under, page.nextKeyMarker(), page.nextVersionIdMarker(), Math.max(max, KeySpace.PAGE), level);
        for (ObjectVersion v : page.versions()) if (v.key().equals(one.key())) versions.add(v);
        for (DeleteMarkerEntry m : page.deleteMarkers()) if (m.key().equals(one.key())) markers.add(m);
        more = Boolean.TRUE.equals(page.isTruncated()) || histories(page).stream().anyMatch(h -> !h.key().equals(one.key()));
      }
      return new KeySpace.Page<>(List.of(new History(one.key(), versions, markers)), folders, more ? one.key() : null);
    }

    @Override
    public String key(History entry) {
      return entry.key();
    }
  }

  private ListObjectVersionsResponse versions(String under, String keyMarker, String versionMarker, int max, boolean level)
      throws IOException {
    ListObjectVersionsRequest.Builder request = ListObjectVersionsRequest.builder().bucket(bucket).prefix(under).maxKeys(max);
    if (level) request.delimiter("/");
    if (!keyMarker.isEmpty()) request.keyMarker(keyMarker);
    if (versionMarker != null) request.versionIdMarker(versionMarker);
    ListObjectVersionsRequest built = request.build();
    return retrier.call(() -> S3Errors.translated(() -> client.listObjectVersions(built)));
  }

  /** A page's versions and delete markers grouped by key, in key order. */
  private static List<History> histories(ListObjectVersionsResponse page) {
    java.util.TreeMap<String, History> byKey = new java.util.TreeMap<>(io.ferry.store.KeyOrder.COMPARATOR);
    for (ObjectVersion v : page.versions()) {
      byKey.computeIfAbsent(v.key(), k -> new History(k, new java.util.ArrayList<>(), new java.util.ArrayList<>())).versions().add(v);
    }
    for (DeleteMarkerEntry m : page.deleteMarkers()) {
      byKey.computeIfAbsent(m.key(), k -> new History(k, new java.util.ArrayList<>(), new java.util.ArrayList<>())).markers().add(m);
    }
    return new java.util.ArrayList<>(byKey.values());
  }

  /** @param level by delimiter '/': the objects directly under {@code under}, and its folders */
  private ListObjectsV2Response page(String under, String after, int max, String token, boolean level) throws IOException {
    ListObjectsV2Request.Builder request = ListObjectsV2Request.builder().bucket(bucket).prefix(under).maxKeys(max);
    if (level) request.delimiter("/");
    if (token != null) {
      request.continuationToken(token);
    } else if (!after.isEmpty()) {
      request.startAfter(after);
    }
    ListObjectsV2Request built = request.build();
    return retrier.call(() -> S3Errors.translated(() -> client.listObjectsV2(built)));
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
    return retrier.call(() -> {
      try {
        return client.headObject(b -> b.bucket(bucket).key(key));
      } catch (NoSuchKeyException e) {
        return null;
      } catch (SdkException e) {
        throw S3Errors.failure(e);
      }
    });
  }

  @Override
  public StoreObject find(String relativeKey) throws IOException {
    return stat(prefix + relativeKey);
  }
}
