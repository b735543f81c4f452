package io.ferry.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Deterministic sample objects, uploaded to a bucket: large ones (multipart), empty ones, many small ones, and keys
 * with spaces and non-ASCII characters. Returns each key's SHA-256 so copies can be checked by content.
 */
public final class SeedData {
  private static final int UPLOAD_PART = 16 << 20;

  private SeedData() {}

  /**
   * Seeds a server from the command line: {@code SeedData <endpoint> <identity> <secret> <bucket> <large-bytes>
   * <small-count> [empty-bucket ...]} uploads the demo's mix into {@code bucket} and creates the empty buckets
   * (jobs/env.sh trains the class-data archive on them).
   */
  public static void main(String[] args) {
    io.ferry.config.S3EndpointConfig endpoint = io.ferry.config.S3EndpointConfig.withKeys(args[0], "us-east-1", args[1], args[2]);
    try (S3Client s3 = TestS3.client(endpoint)) {
      upload(s3, args[3], mix(Long.parseLong(args[4]), Integer.parseInt(args[5])));
      for (int i = 6; i < args.length; i++) {
        String bucket = args[i];
        s3.createBucket(b -> b.bucket(bucket));
      }
    }
  }

  /**
   * An object to create: its key, its size and the seed of its bytes; {@code whole}: one PutObject whatever its size (an
   * ETag that is the MD5 of its bytes), else parts above 16 MiB.
   */
  public record Spec(String key, long size, long seed, boolean whole) {
    public Spec(String key, long size, long seed) {
      this(key, size, seed, false);
    }
  }

  /** The demo's mix: one object of {@code largeBytes}, an empty one, {@code smallCount} small ones, awkward names. */
  public static List<Spec> mix(long largeBytes, int smallCount) {
    List<Spec> specs = new ArrayList<>();
    specs.add(new Spec("video/raw footage 2018.bin", largeBytes, 1));
    specs.add(new Spec("empty.txt", 0, 2));
    specs.add(new Spec("photos/été 2019/café ☕.jpg", 180_000, 3));
    specs.add(new Spec("docs/日本語/レポート.pdf", 95_001, 4));
    specs.add(new Spec("docs/with  two spaces & symbols (1).txt", 4_097, 5));
    SplittableRandom sizes = new SplittableRandom(42);
    for (int i = 0; i < smallCount; i++) {
      specs.add(new Spec(String.format("logs/%02d/app-%04d.log", i % 17, i), 1 + sizes.nextInt(256 * 1024), 100 + i));
    }
    return specs;
  }

  /** Uploads the objects (creating the bucket if needed) and returns key → SHA-256 of the bytes. */
  public static Map<String, String> upload(S3Client s3, String bucket, List<Spec> specs) {
    if (s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals(bucket))) {
      s3.createBucket(b -> b.bucket(bucket));
    }
    Map<String, String> digests = new LinkedHashMap<>();
    for (Spec spec : specs) digests.put(spec.key(), upload(s3, bucket, spec));
    return digests;
  }

  /**
   * Like {@link #upload(S3Client, String, List)}, for a bench's buckets that outlive a run: an object already there
   * at its size is not uploaded again (its bytes are its seed's), the others are uploaded by {@code threads} at once.
   */
  public static Map<String, String> ensure(S3Client s3, String bucket, List<Spec> specs, int threads) throws InterruptedException {
    if (s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals(bucket))) {
      s3.createBucket(b -> b.bucket(bucket));
    }
    Map<String, Long> there = new java.util.HashMap<>();
    for (S3Object o : listFolders(s3, bucket, specs.stream().map(p -> folder(p.key())).distinct().toList())) there.put(o.key(), o.size());
    List<String> digests = io.ferry.copy.Concurrently.map(specs, threads, "seed",
        spec -> Long.valueOf(spec.size()).equals(there.get(spec.key())) ? digest(spec) : upload(s3, bucket, spec));
    Map<String, String> byKey = new LinkedHashMap<>();
    for (int i = 0; i < specs.size(); i++) byKey.put(specs.get(i).key(), digests.get(i));
    return byKey;
  }

  /** A key's folder, with its trailing slash ("" at the top). */
  public static String folder(String key) {
    return key.substring(0, key.lastIndexOf('/') + 1);
  }

  /**
   * The objects directly in each folder, one listing a folder: S3Proxy walks every file of a bucket for each page of
   * a listing of the whole (100,000 objects took minutes to list).
   */
  public static List<S3Object> listFolders(S3Client s3, String bucket, java.util.Collection<String> folders) {
    List<S3Object> objects = new ArrayList<>();
    for (String folder : folders) {
      s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(folder).delimiter("/")).contents().forEach(objects::add);
    }
    return objects;
  }

  /** The SHA-256 of a spec's bytes, as {@link #upload} returns it. */
  static String digest(Spec spec) {
    MessageDigest sha = sha256();
    chunks(spec, sha::update);
    return HexFormat.of().formatHex(sha.digest());
  }

  static String upload(S3Client s3, String bucket, Spec spec) {
    MessageDigest sha = sha256();
    if (spec.whole() && spec.size() > UPLOAD_PART) { // streamed from a file of its bytes: one request, no object in memory
      java.nio.file.Path staged;
      try {
        staged = java.nio.file.Files.createTempFile("ferry-seed", ".bin");
        try (java.io.OutputStream out = java.nio.file.Files.newOutputStream(staged)) {
          chunks(spec, bytes -> {
            sha.update(bytes);
            try {
              out.write(bytes);
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          });
        }
        s3.putObject(b -> b.bucket(bucket).key(spec.key()), RequestBody.fromFile(staged));
        java.nio.file.Files.delete(staged);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return HexFormat.of().formatHex(sha.digest());
    }
    if (spec.size() <= UPLOAD_PART) {
      chunks(spec, bytes -> {
        sha.update(bytes);
        s3.putObject(b -> b.bucket(bucket).key(spec.key()), RequestBody.fromBytes(bytes));
      });
      return HexFormat.of().formatHex(sha.digest());
    }
    String uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(spec.key())).uploadId();
    List<CompletedPart> parts = new ArrayList<>();
    chunks(spec, bytes -> {
      sha.update(bytes);
      int number = parts.size() + 1;
      String etag = s3.uploadPart(b -> b.bucket(bucket).key(spec.key()).uploadId(uploadId).partNumber(number),
          RequestBody.fromBytes(bytes)).eTag();
      parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
    });
    s3.completeMultipartUpload(b -> b.bucket(bucket).key(spec.key()).uploadId(uploadId)
        .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));
    return HexFormat.of().formatHex(sha.digest());
  }

  /** A spec's bytes in the pieces they are uploaded in: one up to UPLOAD_PART, else parts of UPLOAD_PART. */
  private static void chunks(Spec spec, java.util.function.Consumer<byte[]> each) {
    SplittableRandom random = new SplittableRandom(spec.seed());
    long remaining = spec.size();
    do {
      byte[] bytes = bytes(random, (int) Math.min(UPLOAD_PART, remaining));
      each.accept(bytes);
      remaining -= bytes.length;
    } while (remaining > 0);
  }

  private static byte[] bytes(SplittableRandom random, int size) {
    byte[] bytes = new byte[size];
    int i = 0;
    for (; i + 8 <= size; i += 8) {
      long v = random.nextLong();
      for (int k = 0; k < 8; k++) bytes[i + k] = (byte) (v >>> (8 * k));
    }
    long v = random.nextLong();
    for (int k = 0; i < size; i++, k++) bytes[i] = (byte) (v >>> (8 * k));
    return bytes;
  }

  /** The SHA-256 of a file's bytes, in hex. */
  public static String sha256(Path file) throws IOException {
    MessageDigest sha = SeedData.sha256();
    byte[] buffer = new byte[1 << 20];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buffer)) > 0; ) sha.update(buffer, 0, n);
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The CRC32C of {@code bytes[from, to)} in the store's form (base64, big-endian). */
  public static String crc32c(byte[] bytes, int from, int to) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(bytes, from, to - from);
    return io.ferry.store.checksums.Checksum.encode(crc.getValue(), 4);
  }

  /**
   * A multipart object of parts of {@code partBytes} (so its ETag is no MD5); with {@code checksum}, the full-object
   * CRC32C the store keeps for an upload that asks for one, else none.
   */
  public static void putInParts(S3Client c, String bucket, String key, byte[] bytes, int partBytes, boolean checksum) {
    String upload = c.createMultipartUpload(b -> {
      b.bucket(bucket).key(key);
      if (checksum) {
        b.checksumAlgorithm(software.amazon.awssdk.services.s3.model.ChecksumAlgorithm.CRC32_C)
            .checksumType(software.amazon.awssdk.services.s3.model.ChecksumType.FULL_OBJECT);
      }
    }).uploadId();
    List<CompletedPart> parts = new ArrayList<>();
    for (int from = 0, n = 1; from < bytes.length; from += partBytes, n++) {
      int to = Math.min(bytes.length, from + partBytes);
      int number = n;
      String value = crc32c(bytes, from, to);
      String etag = c.uploadPart(b -> {
        b.bucket(bucket).key(key).uploadId(upload).partNumber(number);
        if (checksum) b.checksumCRC32C(value);
      }, RequestBody.fromBytes(java.util.Arrays.copyOfRange(bytes, from, to))).eTag();
      parts.add(CompletedPart.builder().partNumber(n).eTag(etag).checksumCRC32C(checksum ? value : null).build());
    }
    c.completeMultipartUpload(b -> {
      b.bucket(bucket).key(key).uploadId(upload).multipartUpload(m -> m.parts(parts));
      if (checksum) b.checksumCRC32C(crc32c(bytes, 0, bytes.length)).checksumType(software.amazon.awssdk.services.s3.model.ChecksumType
          .FULL_OBJECT);
    });
  }
}
