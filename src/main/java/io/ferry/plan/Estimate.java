package io.ferry.plan;

import io.ferry.config.EstimateConfig;

/**
 * The requests a planned run sends, by kind and side, and what they and the bytes leaving the source cost: pure
 * arithmetic on a plan's totals, so {@code plan} can price a job before it runs.
 *
 * @param sourceList LIST pages at the source (a bucket source; a directory is walked, not listed by requests)
 * @param sourceHead HEAD requests at the source: the manifest's keys checked, one per object written in parts (its
 *     metadata and checksum read when its upload opens), one per archived object (its restore's state)
 * @param get ranged GETs (streamed copies from a bucket)
 * @param destinationList LIST pages at the destination (a bucket destination)
 * @param egressBytes object bytes read out of the source provider (streamed copies; none for a server-side copy)
 */
public record Estimate(long sourceList, long sourceHead, long get, long put, long uploadPart, long uploadPartCopy, long copyObject,
    long create, long complete, long destinationList, long egressBytes) {

  /** How the plan's bytes travel: read from a bucket or a directory, written to a bucket or a directory, or copied inside one service. */
  public enum Route { BUCKET_TO_FILE, BUCKET_TO_BUCKET, SERVER_SIDE, FILE_TO_BUCKET, FILE_TO_FILE }

  public static Estimate of(PlanTotals plan, Route route, long sourcePages, long destinationPages, long manifestHeads) {
    boolean fromBucket = route == Route.BUCKET_TO_FILE || route == Route.BUCKET_TO_BUCKET || route == Route.SERVER_SIDE;
    boolean toBucket = route == Route.BUCKET_TO_BUCKET || route == Route.SERVER_SIDE || route == Route.FILE_TO_BUCKET;
    boolean serverSide = route == Route.SERVER_SIDE;
    long whole = plan.wholeRanges(), parts = plan.partRanges(), split = plan.splitObjects();
    return new Estimate(
        fromBucket ? sourcePages : 0,
        fromBucket ? manifestHeads + split + plan.archived() : 0,
        fromBucket && !serverSide ? plan.gets() : 0,
        toBucket && !serverSide ? whole : 0,
        toBucket && !serverSide ? parts : 0,
        serverSide ? parts : 0,
        serverSide ? whole : 0,
        toBucket ? split : 0,
        toBucket ? split : 0,
        toBucket ? destinationPages : 0,
        fromBucket && !serverSide ? plan.bytes() : 0);
  }

  /** The source's bill: its LIST pages (a write-class request), HEADs and GETs (reads), and egress. */
  public double sourceCost(EstimateConfig.Prices p) {
    return sourceList * p.writePer1000() / 1000 + (sourceHead + get) * p.readPer1000() / 1000 + egressBytes / 1e9 * p.egressPerGB();
  }

  /** The destination's bill: every write-class request (PutObject, parts, copies, create, complete, LIST pages). */
  public double destinationCost(EstimateConfig.Prices p) {
    return (put + uploadPart + uploadPartCopy + copyObject + create + complete + destinationList) * p.writePer1000() / 1000;
  }
}
