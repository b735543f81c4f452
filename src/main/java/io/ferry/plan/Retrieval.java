package io.ferry.plan;

import java.time.Duration;
import java.util.Locale;

/**
 * What restoring archived objects costs and how long it takes, by retrieval tier: AWS S3's list prices for us-east-1
 * (aws.amazon.com/s3/pricing, 2024) and the retrieval times it states, for Glacier Flexible Retrieval and, where it
 * differs, Deep Archive. Other providers price and time their archive tiers otherwise; {@code plan} says which figures
 * it used.
 *
 * @param perThousand USD per 1,000 restore requests (Flexible Retrieval)
 * @param perGB USD per GB (10^9 bytes) restored (Flexible Retrieval)
 * @param flexibleWait how long a restore from Flexible Retrieval takes
 * @param deepArchiveWait ... from Deep Archive ("" where the tier is not offered)
 * @param longest the longest a restore of this tier takes, from any class: how long a request may still be under way
 */
public record Retrieval(String tier, double perThousand, double perGB, String flexibleWait, String deepArchiveWait,
    Duration longest) {
  private static final Retrieval EXPEDITED = new Retrieval("Expedited", 10.00, 0.03, "1-5 minutes", "", Duration.ofHours(1));
  private static final Retrieval STANDARD = new Retrieval("Standard", 0.05, 0.01, "3-5 hours", "within 12 hours",
      Duration.ofHours(12));
  private static final Retrieval BULK = new Retrieval("Bulk", 0.0, 0.0, "5-12 hours", "within 48 hours", Duration.ofHours(48));

  /** The tier as S3 names it, in any case. */
  public static Retrieval of(String tier) {
    return switch (tier.toLowerCase(Locale.ROOT)) {
      case "expedited" -> EXPEDITED;
      case "bulk" -> BULK;
      case "standard" -> STANDARD;
      default -> throw new IllegalArgumentException("no retrieval tier " + tier + ": Expedited, Standard or Bulk");
    };
  }

  /** The price of {@code requests} restores of {@code bytes} in all. */
  public double cost(long requests, long bytes) {
    return requests * perThousand / 1000 + bytes / 1e9 * perGB;
  }

  /** The waits, as one phrase: "3-5 hours (Deep Archive: within 12 hours)". */
  public String waits() {
    return flexibleWait + (deepArchiveWait.isEmpty() ? " (not offered for Deep Archive)" : " (Deep Archive: " + deepArchiveWait + ")");
  }
}
