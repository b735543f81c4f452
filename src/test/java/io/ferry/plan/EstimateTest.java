package io.ferry.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ferry.config.EstimateConfig.Prices;
import io.ferry.plan.Estimate.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EstimateTest {
  // 10 objects, 2 of them split into 12 parts; 8 whole; 19 ranges with bytes (one object is empty); 1 GB
  private static final PlanTotals PLAN = PlanTotals.copying(10, 1_000_000_000L, 20, 2, 3, 8, 19);

  @ParameterizedTest(name = "{0}")
  @CsvSource(textBlock = """
      # route,            list, head, get, put, part, partcopy, copy, create, dlist, egress
      BUCKET_TO_FILE,        7,   2,  19,   0,    0,        0,    0,      0,     0, 1000000000
      BUCKET_TO_BUCKET,      7,   2,  19,   8,   12,        0,    0,      2,     3, 1000000000
      SERVER_SIDE,           7,   2,   0,   0,    0,       12,    8,      2,     3, 0
      FILE_TO_BUCKET,        0,   0,   0,   8,   12,        0,    0,      2,     3, 0
      FILE_TO_FILE,          0,   0,   0,   0,    0,        0,    0,      0,     0, 0
      """)
  void eachRouteSendsItsOwnRequests(Route route, long list, long head, long get, long put, long part, long partCopy, long copy,
      long create, long destinationList, long egress) {
    Estimate e = Estimate.of(PLAN, route, 7, 3, 0);
    assertThat(e).isEqualTo(new Estimate(list, head, get, put, part, partCopy, copy, create, create, destinationList, egress));
  }

  @Test
  void aCheckedManifestAddsAHeadPerEntryAtABucketSource() {
    assertThat(Estimate.of(PLAN, Route.BUCKET_TO_FILE, 0, 0, 500).sourceHead()).isEqualTo(502);
    assertThat(Estimate.of(PLAN, Route.FILE_TO_FILE, 0, 0, 500).sourceHead()).isZero();
  }

  @Test
  void costsFollowS3sRequestClassesAndEgress() {
    Prices aws = new Prices(0.005, 0.0004, 0.09);
    Estimate streamed = Estimate.of(PLAN, Route.BUCKET_TO_BUCKET, 7, 3, 0);
    // source: 7 LIST pages are writes; 2 HEAD + 19 GET are reads; 1 GB out
    assertThat(streamed.sourceCost(aws)).isCloseTo(7 * 0.005 / 1000 + 21 * 0.0004 / 1000 + 0.09, within(1e-12));
    // destination: 8 PUT + 12 parts + 2 create + 2 complete + 3 LIST pages, all writes
    assertThat(streamed.destinationCost(aws)).isCloseTo(27 * 0.005 / 1000, within(1e-12));
    assertThat(Estimate.of(PLAN, Route.SERVER_SIDE, 7, 3, 0).sourceCost(aws)).isCloseTo(7 * 0.005 / 1000 + 2 * 0.0004 / 1000,
        within(1e-12));
    assertThat(streamed.sourceCost(new Prices(0, 0, 0)) + streamed.destinationCost(new Prices(0, 0, 0))).isZero();
  }
}
