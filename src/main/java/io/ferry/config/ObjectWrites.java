package io.ferry.config;

import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** What a bucket destination sets on every object it writes; empty values leave the bucket's defaults. */
public record ObjectWrites(String storageClass, String serverSideEncryption, String kmsKeyId, Map<String, String> tags)
    implements Serializable {
  public static final ObjectWrites NONE = new ObjectWrites("", "", "", Map.of());

  public ObjectWrites {
    Objects.requireNonNull(storageClass, "storageClass is null");
    Objects.requireNonNull(serverSideEncryption, "serverSideEncryption is null");
    Objects.requireNonNull(kmsKeyId, "kmsKeyId is null");
    tags = new TreeMap<>(tags);
  }
}
