package io.ferry.store;

import io.ferry.config.Provider;
import java.util.Locale;
import java.util.Map;

/**
 * {@code destination.storage-class = keep} across providers: the source's class named as the destination's service
 * names its nearest one. Inside one kind of service a class keeps its name. AWS names them all; Alibaba OSS, through
 * its S3 API, takes AWS's names for its Standard, IA and Archive (rclone's Alibaba provider names the same three) and
 * lists its own (IA, Archive, ColdArchive, DeepColdArchive); IBM COS sets a class per bucket (its location
 * constraint), not per object, so there every object takes the bucket's; Ceph's and MinIO's classes are their
 * operators' (placement targets, tiers), so a class they may not have is left to the bucket's default.
 */
public final class StorageClasses {
  private StorageClasses() {}

  /**
   * What an object of the source's class is written as.
   *
   * @param storageClass the class to name in the write ("" for the bucket's default)
   * @param lost why the source's class is not kept, "" when it is (or the source's is the default)
   */
  public record Mapped(String storageClass, String lost) {}

  /** The tiers classes are matched by, coldest last. */
  private enum Tier { STANDARD, REDUCED_REDUNDANCY, INFREQUENT, ONE_ZONE_INFREQUENT, TIERING, INSTANT_ARCHIVE, ARCHIVE, DEEP_ARCHIVE }

  private static final Map<String, Tier> TIERS = Map.ofEntries(Map.entry("STANDARD", Tier.STANDARD),
      Map.entry("REDUCED_REDUNDANCY", Tier.REDUCED_REDUNDANCY), Map.entry("STANDARD_IA", Tier.INFREQUENT), Map.entry("IA", Tier.INFREQUENT),
      Map.entry("ONEZONE_IA", Tier.ONE_ZONE_INFREQUENT), Map.entry("INTELLIGENT_TIERING", Tier.TIERING),
      Map.entry("GLACIER_IR", Tier.INSTANT_ARCHIVE), Map.entry("GLACIER", Tier.ARCHIVE), Map.entry("ARCHIVE", Tier.ARCHIVE),
      Map.entry("DEEP_ARCHIVE", Tier.DEEP_ARCHIVE), Map.entry("COLDARCHIVE", Tier.DEEP_ARCHIVE),
      Map.entry("DEEPCOLDARCHIVE", Tier.DEEP_ARCHIVE));

  /** Each tier as AWS names it, and as OSS's S3 API takes it (null: none of its names). */
  private static final Map<Tier, String> AWS_NAMES = Map.of(Tier.STANDARD, "", Tier.REDUCED_REDUNDANCY, "REDUCED_REDUNDANCY",
      Tier.INFREQUENT, "STANDARD_IA", Tier.ONE_ZONE_INFREQUENT, "ONEZONE_IA", Tier.TIERING, "INTELLIGENT_TIERING",
      Tier.INSTANT_ARCHIVE, "GLACIER_IR", Tier.ARCHIVE, "GLACIER", Tier.DEEP_ARCHIVE, "DEEP_ARCHIVE");
  private static final Map<Tier, String> OSS_NAMES = Map.of(Tier.STANDARD, "", Tier.INFREQUENT, "STANDARD_IA",
      Tier.ONE_ZONE_INFREQUENT, "STANDARD_IA", Tier.INSTANT_ARCHIVE, "STANDARD_IA", Tier.ARCHIVE, "GLACIER");

  /** The source's class ({@code sourceClass}, "" for its default) as the destination names it. */
  public static Mapped keep(String sourceClass, Provider from, Provider to) {
    String named = sourceClass == null ? "" : sourceClass.trim();
    String key = named.toUpperCase(Locale.ROOT).replace("-", "");
    Tier tier = key.isEmpty() ? Tier.STANDARD : TIERS.getOrDefault(key, TIERS.get(key.replace("_", ""))); // COLD_ARCHIVE too
    if (tier == Tier.STANDARD) return new Mapped("", "");
    if (from == to && to != Provider.IBM_COS) return new Mapped(named, ""); // one kind of service: its own name
    if (tier == null) {
      return new Mapped("", "storage class " + named + " (the source's own; the destination names no such class): the bucket's default");
    }
    return switch (to) {
      case AWS -> new Mapped(AWS_NAMES.get(tier), "");
      case OSS -> OSS_NAMES.containsKey(tier) ? new Mapped(OSS_NAMES.get(tier), "")
          : tier == Tier.DEEP_ARCHIVE ? new Mapped("GLACIER", "storage class " + named + " (OSS's S3 API names no colder class than"
              + " GLACIER, its Archive): GLACIER")
          : new Mapped("", "storage class " + named + " (OSS's S3 API names no such class): the bucket's default");
      case IBM_COS -> new Mapped("", "storage class " + named + " (IBM COS sets classes per bucket, not per object): the bucket's class");
      case OTHER -> tier == Tier.REDUCED_REDUNDANCY ? new Mapped("REDUCED_REDUNDANCY", "")
          : new Mapped("", "storage class " + named + " (the destination's classes are its operator's): the bucket's default");
    };
  }
}
