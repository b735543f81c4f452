package io.ferry.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.store.StoreObject;
import org.junit.jupiter.api.Test;

/** The verdicts a pair gets from the listings alone, and when its bytes must be read. */
class ComparisonTest {
  private static final String MD5 = "0123456789abcdef0123456789abcdef";

  private static StoreObject object(long size, String etag) {
    return new StoreObject("k", "k", size, etag, 0);
  }

  private static StoreObject archived(long size, String etag) {
    return StoreObject.archived("k", "k", size, etag, 0, "GLACIER", false);
  }

  @Test
  void eachPairIsSettledByTheListingsWhereTheyCanSettleItAndArchivedSourcesAreNeverRead() {
    assertThat(Comparison.withoutReading(object(3, MD5), null).status()).isEqualTo(Comparison.Status.MISSING);
    assertThat(Comparison.withoutReading(null, object(3, MD5)).status()).isEqualTo(Comparison.Status.EXTRA);
    assertThat(Comparison.withoutReading(object(3, MD5), object(4, MD5)).status()).isEqualTo(Comparison.Status.SIZE_DIFFERS);
    assertThat(Comparison.withoutReading(object(3, MD5), object(3, MD5)).method()).isEqualTo("etag-md5");
    assertThat(Comparison.withoutReading(object(3, MD5), object(3, ""))).as("read both").isNull();
    assertThat(Comparison.withoutReading(object(3, "abc-2"), object(3, "abc-2"))).as("multipart ETags: read both").isNull();
    // archived: sizes decide, as nothing can be read
    assertThat(Comparison.withoutReading(archived(3, "abc-2"), object(3, ""))).satisfies(r -> {
      assertThat(r.status()).isEqualTo(Comparison.Status.MATCH);
      assertThat(r.method()).isEqualTo("size-archived");
      assertThat(r.detail()).contains("GLACIER");
    });
    assertThat(Comparison.withoutReading(archived(3, MD5), object(3, MD5)).method()).isEqualTo("etag-md5");
    assertThat(Comparison.withoutReading(archived(3, MD5), object(5, "")).status()).isEqualTo(Comparison.Status.SIZE_DIFFERS);
    assertThat(Comparison.withoutReading(archived(3, MD5), null).status()).isEqualTo(Comparison.Status.MISSING);
  }
}
