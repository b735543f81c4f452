package io.ferry.config;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a bucket destination sets on every object it writes; empty values leave the bucket's defaults.
 *
 * @param storageClass a storage class, {@link #KEEP} (the source's), or "" (the bucket's default)
 * @param copyTags whether the source's tags are carried (the destination's {@code tags} set over them)
 * @param acl a canned ACL set on every object written ({@code x-amz-acl}), {@link #COPY} (each object's grants at the
 *     source, as grant headers), or "" for none (the bucket's rules)
 * @param classesFrom the kind of service the source is, whose class names {@link #KEEP} maps; null for the destination's
 *     own kind (a class keeps its name)
 */
public record ObjectWrites(String storageClass, String serverSideEncryption, String kmsKeyId, Map<String, String> tags,
    boolean copyTags, String acl, Provider classesFrom) implements Serializable {
  public static final String KEEP = "keep";
  public static final String COPY = "copy";
  public static final ObjectWrites NONE = new ObjectWrites("", "", "", Map.of(), true, "", null);

  /** The canned ACLs S3 defines for objects. */
  public static final List<String> CANNED_ACLS = List.of("private", "public-read", "public-read-write",
      "authenticated-read", "aws-exec-read", "bucket-owner-read", "bucket-owner-full-control");

  public ObjectWrites {
    Objects.requireNonNull(acl, "acl is null");
    Objects.requireNonNull(storageClass, "storageClass is null");
    Objects.requireNonNull(serverSideEncryption, "serverSideEncryption is null");
    Objects.requireNonNull(kmsKeyId, "kmsKeyId is null");
    tags = new TreeMap<>(tags);
  }

  public ObjectWrites(String storageClass, String serverSideEncryption, String kmsKeyId, Map<String, String> tags) {
    this(storageClass, serverSideEncryption, kmsKeyId, tags, true, "", null);
  }

  public ObjectWrites(String storageClass, String serverSideEncryption, String kmsKeyId, Map<String, String> tags, boolean copyTags) {
    this(storageClass, serverSideEncryption, kmsKeyId, tags, copyTags, "", null);
  }

  public ObjectWrites(String storageClass, String serverSideEncryption, String kmsKeyId, Map<String, String> tags, boolean copyTags,
      String acl) {
    this(storageClass, serverSideEncryption, kmsKeyId, tags, copyTags, acl, null);
  }

  /** The same writes, keeping classes named by a source of the kind {@code source}. */
  public ObjectWrites withClassesFrom(Provider source) {
    return new ObjectWrites(storageClass, serverSideEncryption, kmsKeyId, tags, copyTags, acl, source);
  }

  public boolean copiesAcl() {
    return acl.equals(COPY);
  }

  public boolean keepsStorageClass() {
    return storageClass.equals(KEEP);
  }
}
