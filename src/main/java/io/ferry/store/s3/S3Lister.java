package io.ferry.store.s3;

import io.ferry.store.ETags;
import io.ferry.store.listing.KeySpace;
import io.ferry.store.ListCounts;
import io.ferry.store.Lister;
import io.ferry.store.retry.Retrier;
import io.ferry.store.Shard;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.util.ArrayList;
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
 * folder markers, not objects: they are counted and left out.
 */
final class S3Lister implements Lister {
  /** Requests in flight while the driver splits the key space. */
  private static final int SPLIT_THREADS = 16;
  private final S3Client client;
  private final String bucket;
  private final String prefix;
  private final Retrier retrier;

  S3Lister(S3Client client, String bucket, String prefix, Retrier retrier) {
    this.client = client;
    this.bucket = bucket;
    this.prefix = prefix;
    this.retrier = retrier;
  }

  @Override
  public List<Shard> shards(List<String> prefixes, int target) throws IOException {
    List<String> under = prefixes.isEmpty() ? List.of(prefix) : prefixes.stream().map(p -> prefix + p).toList();
    List<Shard> shards = new ArrayList<>();
    int each = Math.max(1, (target + under.size() - 1) / under.size());
    for (String p : under) {
      shards.addAll(target <= 1 ? List.of(Shard.all(p)) : KeySpace.split(p, each, pages, SPLIT_THREADS));
    }
    return shards;
  }

  /** The requests the key-space split sends. */
  private final KeySpace.Pages pages = new KeySpace.Pages() {
    @Override
    public List<String> first(String under, String after, int max) throws IOException {
      return page(under, after, max, null, false).contents().stream().map(S3Object::key).toList();
    }

    @Override
    public KeySpace.Level level(String under, int max) throws IOException {
      ListObjectsV2Response page = page(under, "", max, null, true);
      return new KeySpace.Level(page.contents().stream().map(S3Object::key).toList(),
          page.commonPrefixes().stream().map(CommonPrefix::prefix).toList(), Boolean.TRUE.equals(page.isTruncated()));
    }
  };

  /** Pages one after another, each retried by the job's policy (a listing is many requests; it resumes at its page). */
  @Override
  public ListCounts list(Shard shard, Consumer<StoreObject> consumer) throws IOException {
    long listed = 0, markers = 0, pages = 0;
    String token = null;
    boolean end = false;
    do {
      ListObjectsV2Response page = page(shard.prefix(), shard.after(), 1000, token, !shard.recursive());
      pages++;
      for (S3Object o : page.contents()) {
        if (shard.beyond(o.key())) {
          end = true;
          break;
        }
        listed++;
        if (o.key().endsWith("/") && o.size() == 0) {
          markers++;
          continue;
        }
        consumer.accept(new StoreObject(o.key(), o.key().substring(prefix.length()), o.size(), ETags.unquote(o.eTag()),
            o.lastModified() == null ? 0 : o.lastModified().toEpochMilli()));
      }
      token = !end && Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
    } while (token != null);
    return new ListCounts(listed, listed - markers, markers, 0, pages);
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

  @Override
  public StoreObject stat(String key) throws IOException {
    HeadObjectResponse head = retrier.call(() -> {
      try {
        return client.headObject(b -> b.bucket(bucket).key(key));
      } catch (NoSuchKeyException e) {
        return null;
      } catch (SdkException e) {
        throw S3Errors.failure(e);
      }
    });
    return head == null ? null : new StoreObject(key, key.startsWith(prefix) ? key.substring(prefix.length()) : key,
        head.contentLength(), ETags.unquote(head.eTag()), head.lastModified() == null ? 0 : head.lastModified().toEpochMilli());
  }

  @Override
  public StoreObject find(String relativeKey) throws IOException {
    return stat(prefix + relativeKey);
  }
}
