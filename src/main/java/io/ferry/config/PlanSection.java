package io.ferry.config;

/** {@code ferry.plan}: how objects are cut into parts and bundled into tasks. */
final class PlanSection {
  /** What {@code part-size = auto} starts from, and keeps where it measures nothing: the fixed default. */
  static final long AUTO_START = 64L << 20;

  private PlanSection() {}

  /** The plan, or null when one of its own keys has a problem; {@code destination} may be null (it had problems). */
  static PlanConfig read(Hocon h, DestinationConfig destination) {
    int before = h.problems().size();
    boolean auto = "auto".equals(h.string("plan.part-size"));
    long partSize = h.bytesOrAuto("plan.part-size", AUTO_START);
    if (destination != null && destination.store() instanceof BucketConfig && partSize < S3Limits.MIN_PART) {
      h.problem("plan.part-size", partSize, "is too small for a bucket destination: S3 multipart parts must be at least 5MiB"
          + " (except the last); set ferry.plan.part-size to 5MiB or more");
    }
    long bundleSize = h.bytes("plan.bundle-size");
    int bundleObjects = h.integer("plan.bundle-objects");
    long copyCutoff = h.bytes("plan.copy-cutoff");
    if (partSize < 1) h.problem("plan.part-size", partSize, "must be auto, or at least 1 byte (64MiB is a good start)");
    if (partSize > S3Limits.MAX_PART) h.problem("plan.part-size", partSize, "must be at most 5GiB (S3's largest part)");
    if (bundleSize < 1) h.problem("plan.bundle-size", bundleSize, "must be at least 1 byte");
    if (bundleObjects < 1) h.problem("plan.bundle-objects", bundleObjects, "must be at least 1");
    if (copyCutoff < 0 || copyCutoff > S3Limits.MAX_PART) {
      h.problem("plan.copy-cutoff", copyCutoff, "must be between 0 and 5GiB (S3's largest CopyObject)");
    }
    int listingShards = h.integer("plan.listing-shards");
    if (listingShards < 0 || listingShards > 100_000) {
      h.problem("plan.listing-shards", listingShards, "must be between 0 (twice the cluster's listing streams) and 100000");
    }
    int pageKeys = h.integer("plan.listing-page-keys");
    if (pageKeys < 1 || pageKeys > 1000) {
      h.problem("plan.listing-page-keys", pageKeys, "must be between 1 and 1000 (S3's most keys a page)");
    }
    return h.problems().size() == before ? new PlanConfig(partSize, bundleSize, bundleObjects, copyCutoff, listingShards, auto, pageKeys)
        : null;
  }
}
