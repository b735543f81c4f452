package io.ferry.store.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class PrefixControlTest {
  private static final long S = 1_000_000_000L;
  private final PrefixControl control = new PrefixControl(1_000, 60_000);

  @Test
  void aPrefixNoAnswerSlowedHasNoRate() {
    control.report("b/p/", 5_000, 0, 0);
    control.report("b/p/", 5_000, 0, S);
    assertThat(control.rates(2 * S)).isEmpty();
  }

  @Test
  void theFirstSlowDownHoldsThePrefixToFourFifthsOfWhatItAcceptedFromTheWholeJob() {
    control.report("b/p/", 600, 0, 0); // two executors' reports over the first second: 1,000 accepted
    control.report("b/p/", 400, 0, S / 2);
    control.report("b/p/", 3, 3, S); // the window rolls, then the first answers asking to slow down
    control.report("b/q/", 10, 0, S);
    assertThat(control.rates(S)).containsOnlyKeys("b/p/");
    assertThat(control.rates(S).get("b/p/")).isCloseTo(800, within(1e-6));
    assertThat(control.throttled("b/p/")).isEqualTo(3);
  }

  @Test
  void slowDownsWithinTheCooldownAreOneSignalAndLaterOnesCutAgain() {
    control.report("b/p/", 1_000, 0, 0);
    control.report("b/p/", 1, 1, S);
    control.report("b/p/", 5, 5, S + S / 2); // the answers to requests sent together
    assertThat(control.rates(S + S / 2).get("b/p/")).isCloseTo(800, within(1e-6));
    control.report("b/p/", 300, 0, 2 * S); // the prefix took 300 in the next second
    control.report("b/p/", 1, 1, 3 * S); // and asks again: the lesser of the rate and what it took
    assertThat(control.rates(3 * S).get("b/p/")).isCloseTo(240, within(1e-6));
  }

  @Test
  void aSecondWithoutSlowDownsRaisesTheRateByATwentiethAndAMinuteReleasesIt() {
    control.report("b/p/", 1_000, 0, 0);
    control.report("b/p/", 1, 1, S);
    assertThat(control.rates(2 * S).get("b/p/")).isCloseTo(840, within(1e-6));
    assertThat(control.rates(3 * S).get("b/p/")).isCloseTo(882, within(1e-6));
    assertThat(control.rates(61 * S)).isEmpty();
  }

  @Test
  void aRateNeverFallsBelowTheFloor() {
    control.report("b/p/", 1, 1, 0);
    assertThat(control.rates(0).get("b/p/")).isEqualTo(PrefixControl.FLOOR);
  }

  @ParameterizedTest(name = "{0} {1} (bucket in path: {2}) -> {3}")
  @CsvSource(delimiter = '|', value = {
      "127.0.0.1:9000 | /bucket/photos/2024/a.jpg | true  | 127.0.0.1:9000/bucket/photos/",
      "127.0.0.1:9000 | /bucket/a.jpg             | true  | 127.0.0.1:9000/bucket/",
      "127.0.0.1:9000 | /bucket                   | true  | 127.0.0.1:9000/bucket/",
      "127.0.0.1:9000 | /bucket/                  | true  | 127.0.0.1:9000/bucket/",
      "127.0.0.1:9001 | /bucket/a.jpg             | true  | 127.0.0.1:9001/bucket/",
      "bucket.s3.amazonaws.com | /photos/a.jpg    | false | bucket.s3.amazonaws.com/photos/",
      "bucket.s3.amazonaws.com | /                | false | bucket.s3.amazonaws.com/",
      "127.0.0.1:9000 | /bucket/photos%2Fa.jpg    | true  | 127.0.0.1:9000/bucket/photos/",
      "127.0.0.1:9000 | /bucket//a.jpg            | true  | 127.0.0.1:9000/bucket//",
  })
  void thePrefixOfARequestIsItsBucketAndTheKeysFirstFolder(String host, String path, boolean bucketInPath, String prefix) {
    assertThat(PrefixRates.of(host, path, bucketInPath)).isEqualTo(prefix);
  }
}
