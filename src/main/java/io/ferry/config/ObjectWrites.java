package io.ferry.config;

import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a bucket destination sets on every object it writes; empty values leave the bucket's defaults.
 *
 * @param storageClass a storage class, {@link #KEEP} (the source's), or "" (the bucket's default)
 * @param copyTags whether the source's tags are carried (the destination's {@code tags} set over them)
 */
public record ObjectWrites(String storageClass, String serverSideEncryption, String kmsKeyId, Map<String, String> tags,
    boolean copyTags) implements Serializable {
  public static final String KEEP = "keep";
  public static final ObjectWrites NONE = new ObjectWrites("", "", "", Map.of(), true);

  public ObjectWrites {
    Objects.requireNonNull(storageClass, "storageClass is null");
    Objects.requireNonNull(serverSideEncryption, "serverSideEncryption is null");
    Objects.requireNonNull(kmsKeyId, "kmsKeyId is null");
    tags = new TreeMap<>(tags);
  }

  public ObjectWrites(String storageClass, String serverSideEncryption, String kmsKeyId, Map<String, String> tags) {
    this(storageClass, serverSideEncryption, kmsKeyId, tags, true);
  }

  public boolean keepsStorageClass() {
    return storageClass.equals(KEEP);
  }
}
