package io.ferry.store.s3;

import io.ferry.config.BucketConfig;
import io.ferry.store.ETags;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.s3.http.S3Errors;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;

/**
 * A bucket's multipart uploads, as a rerun and a completion see them: the parts still there, the uploads still open, an
 * object completed already, the openings an answer lost; and an upload's abort.
 */
final class MultipartUploads {
  private final S3Client client;
  private final BucketConfig config;

  MultipartUploads(S3Client client, BucketConfig config) {
    this.client = client;
    this.config = config;
  }

  /**
   * The recorded parts ListParts shows with the recorded ETags; null when the upload is gone: not among the bucket's
   * open uploads of the key (some stores, S3Proxy among them, answer ListParts of an aborted upload with no parts and
   * even take new parts for it, where S3 answers NoSuchUpload), or NoSuchUpload.
   */
  Set<Integer> partsStillThere(Upload upload, SortedMap<Integer, String> recorded) throws IOException {
    if (!open(upload)) return null;
    Set<Integer> there = new TreeSet<>();
    Optional<Set<Integer>> listed = S3Errors.translated(() -> {
      Integer marker = null;
      do {
        Integer from = marker;
        var page = client.listParts(b -> b.bucket(config.bucket()).key(S3Destination.key(config, upload.object())).uploadId(upload.id())
            .partNumberMarker(from));
        for (var part : page.parts()) {
          String etag = recorded.get(part.partNumber());
          if (etag != null && ETags.unquote(part.eTag()).equals(ETags.unquote(etag))) there.add(part.partNumber());
        }
        marker = Boolean.TRUE.equals(page.isTruncated()) ? page.nextPartNumberMarker() : null;
      } while (marker != null);
      return Optional.of(there);
    }, e -> e instanceof NoSuchUploadException ? Optional.of(Optional.empty()) : Optional.empty());
    return listed.orElse(null);
  }

  /**
   * Whether the bucket lists the upload among the open uploads of its key; true when these credentials may not list
   * uploads (ListParts alone then says).
   */
  private boolean open(Upload upload) throws IOException {
    String key = S3Destination.key(config, upload.object());
    return S3Errors.translated(() -> {
      String keyMarker = null, idMarker = null;
      while (true) {
        String k = keyMarker, i = idMarker;
        var page = client.listMultipartUploads(b -> b.bucket(config.bucket()).prefix(key).keyMarker(k).uploadIdMarker(i));
        for (var u : page.uploads()) if (u.key().equals(key) && u.uploadId().equals(upload.id())) return true;
        if (!Boolean.TRUE.equals(page.isTruncated())) return false;
        keyMarker = page.nextKeyMarker();
        idMarker = page.nextUploadIdMarker();
        if (keyMarker == null || !keyMarker.startsWith(key)) return false;
      }
    }, e -> S3Errors.status(e, 403) ? Optional.of(true) : Optional.empty());
  }

  /** Every open multipart upload under the prefix, keyed relative to it (size and ETag unknown: 0 and ""). */
  List<Upload> openUploads() throws IOException {
    return S3Errors.translated(() -> {
      List<Upload> open = new ArrayList<>();
      for (var u : client.listMultipartUploadsPaginator(b -> b.bucket(config.bucket()).prefix(config.prefix())).uploads()) {
        String relative = u.key().substring(config.prefix().length());
        open.add(new Upload(new StoreObject(u.key(), relative, 0, "", u.initiated() == null ? 0 : u.initiated().toEpochMilli()),
            u.uploadId()));
      }
      return open;
    });
  }

  int abortLostOpenings(Upload kept, long withinMillis) throws IOException {
    String key = S3Destination.key(config, kept.object());
    List<MultipartUpload> uploads = S3Errors.translated(() -> client.listMultipartUploadsPaginator(b -> b.bucket(config.bucket())
        .prefix(key)).uploads().stream().filter(u -> u.key().equals(key)).toList());
    Instant at = uploads.stream().filter(u -> u.uploadId().equals(kept.id())).map(u -> u.initiated()).findFirst().orElse(null);
    if (at == null) return 0;
    int aborted = 0;
    for (var u : uploads) {
      if (u.uploadId().equals(kept.id()) || u.initiated() == null) continue;
      // the retries' own window, measured by this JVM and placed on the service's clock at the kept upload
      if (u.initiated().isBefore(at.minusMillis(withinMillis + 2_000)) || u.initiated().isAfter(at.plusMillis(1_000))) continue;
      abort(new Upload(kept.object(), u.uploadId()));
      aborted++;
    }
    return aborted;
  }

  /** Is the object at its key the one these parts make (its ETag the MD5 of their MD5s, "-" and their count)? */
  boolean completed(Upload upload, SortedMap<Integer, String> receipts) throws IOException {
    String expected = multipartEtag(receipts.values());
    return S3Errors.translated(() -> {
      var head = client.headObject(b -> b.bucket(config.bucket()).key(S3Destination.key(config, upload.object())));
      String etag = ETags.unquote(head.eTag());
      return expected != null ? expected.equals(etag) : head.contentLength() == upload.object().size();
    }, e -> e instanceof NoSuchKeyException ? Optional.of(false) : Optional.empty());
  }

  /** The ETag S3 gives an object completed from parts with these ETags; null when a part's is not an MD5. */
  static String multipartEtag(Collection<String> partEtags) {
    MessageDigest md5;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    for (String etag : partEtags) {
      String hex = ETags.unquote(etag);
      if (!hex.matches("[0-9a-fA-F]{32}")) return null;
      md5.update(HexFormat.of().parseHex(hex));
    }
    return HexFormat.of().formatHex(md5.digest()) + "-" + partEtags.size();
  }

  void abort(Upload upload) throws IOException {
    if (!upload.inParts()) return; // a failed PutObject leaves nothing
    // aborted already (an abort repeated after an executor loss), or completed: either way nothing is left open
    S3Errors.translated(() -> client.abortMultipartUpload(b -> b.bucket(config.bucket()).key(S3Destination.key(config,
        upload.object())).uploadId(upload.id())), e -> e instanceof NoSuchUploadException ? Optional.of(AbortMultipartUploadResponse
        .builder().build()) : Optional.empty());
  }
}
