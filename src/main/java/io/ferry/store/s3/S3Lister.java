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

  /** @param archiveStates whether objects that may be archived are asked a HEAD (a source's are; a destination's need not be) */
  S3Lister(S3Client client, String bucket, String prefix, Retrier retrier, boolean archiveStates) {
    this.client = client;
    this.bucket = bucket;
    this.prefix = prefix;
    this.retrier = retrier;
    this.archiveStates = archiveStates;
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
