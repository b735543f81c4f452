package io.ferry.config;

import java.io.Serializable;

/**
 * How objects become range tasks.
 *
 * @param copyCutoff for server-side copies: objects up to this size are one CopyObject, larger ones UploadPartCopy
 *     ranges of {@code partSize}
 * @param listingShards key-space shards listed in parallel; 0 for twice the cluster's listing streams
 * @param autoPartSize {@code part-size = auto}: the plan chooses the part size ({@code PartSizing.auto}) and
 *     {@code partSize} is what it starts from
 * @param listingPageKeys keys asked for in each LIST page (1 to 1000)
 */
public record PlanConfig(long partSize, long bundleSize, int bundleObjects, long copyCutoff, int listingShards, boolean autoPartSize,
    int listingPageKeys) implements Serializable {
  public PlanConfig {
    if (partSize < 1) throw new IllegalArgumentException("partSize must be positive: " + partSize);
    if (copyCutoff < 0) throw new IllegalArgumentException("copyCutoff must not be negative: " + copyCutoff);
    if (bundleSize < 1) throw new IllegalArgumentException("bundleSize must be positive: " + bundleSize);
    if (bundleObjects < 1) throw new IllegalArgumentException("bundleObjects must be positive: " + bundleObjects);
    if (listingShards < 0) throw new IllegalArgumentException("listingShards must not be negative: " + listingShards);
    if (listingPageKeys < 1 || listingPageKeys > 1000) {
      throw new IllegalArgumentException("listingPageKeys must be between 1 and 1000: " + listingPageKeys);
    }
  }

  public PlanConfig(long partSize, long bundleSize, int bundleObjects, long copyCutoff, int listingShards, boolean autoPartSize) {
    this(partSize, bundleSize, bundleObjects, copyCutoff, listingShards, autoPartSize, 1000);
  }

  public PlanConfig(long partSize, long bundleSize, int bundleObjects, long copyCutoff, int listingShards) {
    this(partSize, bundleSize, bundleObjects, copyCutoff, listingShards, false);
  }

  public PlanConfig(long partSize, long bundleSize, int bundleObjects, long copyCutoff) {
    this(partSize, bundleSize, bundleObjects, copyCutoff, 0);
  }

  /** No whole-object server-side copies above the part size. */
  public PlanConfig(long partSize, long bundleSize, int bundleObjects) {
    this(partSize, bundleSize, bundleObjects, 0, 0);
  }

  /** The same plan with the part size {@code auto} chose. */
  public PlanConfig withPartSize(long chosen) {
    return new PlanConfig(chosen, bundleSize, bundleObjects, copyCutoff, listingShards, autoPartSize, listingPageKeys);
  }

  /** The largest object copied as one range: the part size, or the copy cutoff for server-side copies. */
  public long wholeObjectLimit(boolean serverSide) {
    return serverSide ? Math.max(partSize, copyCutoff) : partSize;
  }
}
