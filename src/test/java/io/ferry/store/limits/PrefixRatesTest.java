package io.ferry.store.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrefixRatesTest {
  @AfterEach
  void forget() {
    PrefixRates.forgetAll();
  }

  @ParameterizedTest(name = "{0} {1} (path-style {2}) -> {3}")
  @CsvSource(delimiter = '|', textBlock = """
      s3.example.com            | /media/photos/2024/a.jpg | true  | s3.example.com/media/photos/
      s3.example.com            | /media/a.jpg             | true  | s3.example.com/media/
      s3.example.com            | /media                   | true  | s3.example.com/media/
      s3.example.com            | /media/                  | true  | s3.example.com/media/
      s3.example.com            | /media/photos%2Fa.jpg    | true  | s3.example.com/media/photos/
      media.s3.example.com      | /photos/2024/a.jpg       | false | media.s3.example.com/photos/
      media.s3.example.com      | /a.jpg                   | false | media.s3.example.com/
      media.s3.example.com      | /                        | false | media.s3.example.com/
      """)
  void aRequestsPrefixIsItsEndpointBucketAndFirstFolder(String host, String path, boolean bucketInPath, String prefix) {
    assertThat(PrefixRates.of(host, path, bucketInPath)).isEqualTo(prefix);
  }

  @Test
  void bucketsOfOneNameAtTwoEndpointsAreTwoPrefixes() {
    assertThat(PrefixRates.of("cos.example.com", "/media/photos/a", true))
        .isNotEqualTo(PrefixRates.of("s3.example.com", "/media/photos/a", true));
  }

  @Test
  void aReportCountsWhatWasSentAndThrottledSinceTheLastOne() {
    PrefixRates.answered("h/b/hot/", false);
    PrefixRates.answered("h/b/hot/", true);
    PrefixRates.answered("h/b/cool/", false);
    Map<String, long[]> first = PrefixRates.report();
    assertThat(first.get("h/b/hot/")).containsExactly(2, 1);
    assertThat(first.get("h/b/cool/")).containsExactly(1, 0);
    assertThat(PrefixRates.report()).isEmpty(); // nothing since
  }

  @Test
  void onlyTheNamedPrefixesAreHeldAndAShareLiftedIsGone() {
    PrefixRates.answered("h/b/hot/", true);
    PrefixRates.answered("h/b/cool/", false);
    PrefixRates.share(Map.of("h/b/hot/", 20.0));
    assertThat(PrefixRates.shareOf("h/b/hot/")).isEqualTo(20.0);
    assertThat(PrefixRates.shareOf("h/b/cool/")).isZero();
    PrefixRates.share(Map.of());
    assertThat(PrefixRates.shareOf("h/b/hot/")).isZero();
  }

  @Test
  void pastTheMostKeptApartAHeldPrefixNeverHoldsTheOthersToItsRate() {
    for (int i = 0; i < PrefixRates.MOST; i++) PrefixRates.answered("h/b/f" + i + "/", false);
    PrefixRates.answered("h/b/late/", true); // counted under the others' entry
    assertThat(PrefixRates.report()).containsKey(PrefixRates.OTHERS).doesNotContainKey("h/b/late/");
    // another executor kept "late" apart, and the driver holds it: this JVM has no entry of its own for it
    PrefixRates.share(Map.of("h/b/late/", 1.0));
    assertThat(PrefixRates.shareOf(PrefixRates.OTHERS)).isZero();
    assertThat(PrefixRates.shareOf("h/b/f7/")).isZero();
  }
}
