package io.ferry.copy;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.copy.StreamTuning.Phase;
import io.ferry.copy.StreamTuning.State;
import io.ferry.copy.StreamTuning.Window;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The streams an executor runs, from what each window measured: a table of one step each, then whole runs. */
class StreamTuningTest {
  private static final StreamTuning TUNING = new StreamTuning(4, 128, 0.10, 3);

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      # case                               |limit|phase|base|base rate|ceiling|held|rate|saturated|pushedback|-> limit|phase|base|ceiling
      first window: double                 |   32|CLIMB|   0|        0|    128|   0| 100|     true|         0|      64|CLIMB|  32|    128
      doubled and rose 10%: double again   |   64|CLIMB|  32|      100|    128|   0| 110|     true|         0|     128|CLIMB|  64|    128
      doubled and rose 9%: back to the base|   64|CLIMB|  32|      100|    128|   0| 109|     true|         0|      32| HOLD|   0|    128
      doubled and fell: back to the base   |   64|CLIMB|  32|      100|    128|   0|  80|     true|         0|      32| HOLD|   0|    128
      at the most: hold                    |  128|CLIMB|  64|      100|    128|   0| 150|     true|         0|     128| HOLD|   0|    128
      not saturated: nothing learnt        |   64|CLIMB|  32|      100|    128|   0|  20|    false|         0|      64|CLIMB|  32|    128
      pushed back: 1/4 fewer, a ceiling    |   64|CLIMB|  32|      100|    128|   0| 200|     true|         3|      48| HOLD|   0|     48
      pushed back, unsaturated: fewer      |   64| HOLD|   0|        0|    128|   1| 200|    false|         3|      48| HOLD|   0|     48
      one range in 40 retried: a stray     |   32|CLIMB|   0|        0|    128|   0| 100|     true|         1|      64|CLIMB|  32|    128
      no rate measured at the base: climb  |   64|CLIMB|  32|        0|    128|   0|   0|     true|         0|     128|CLIMB|  64|    128
      pushed back at the fewest: the fewest|    5|CLIMB|   0|        0|    128|   0| 200|     true|         3|       4| HOLD|   0|      4
      held 1 of 3: hold                    |   32| HOLD|   0|        0|    128|   0| 100|     true|         0|      32| HOLD|   0|    128
      held 3 of 3: probe a quarter higher  |   32| HOLD|   0|        0|    128|   2| 100|     true|         0|      40|CLIMB|  32|    128
      probe after a push-back              |   48| HOLD|   0|        0|     48|   2| 100|     true|         0|      60|CLIMB|  48|     60
      probe at the most: hold again        |  128| HOLD|   0|        0|    128|   2| 100|     true|         0|     128| HOLD|   0|    128
      """)
  void oneWindowOf40RangesFinished(String name, int limit, Phase phase, int base, double baseRate, int ceiling, int held, double rate,
      boolean saturated, int pushedBack, int nextLimit, Phase nextPhase, int nextBase, int nextCeiling) {
    State next = TUNING.next(new State(limit, phase, base, baseRate, ceiling, held),
        new Window(rate, saturated, 40, pushedBack));
    assertThat(next.limit()).as("limit").isEqualTo(nextLimit);
    assertThat(next.phase()).as("phase").isEqualTo(nextPhase);
    assertThat(next.base()).as("base").isEqualTo(nextBase);
    assertThat(next.ceiling()).as("ceiling").isEqualTo(nextCeiling);
  }

  @Test
  void theStartIsWithinTheBounds() {
    assertThat(TUNING.start(1).limit()).isEqualTo(4);
    assertThat(TUNING.start(32).limit()).isEqualTo(32);
    assertThat(TUNING.start(1000).limit()).isEqualTo(128);
  }

  /** A link whose aggregate rises with streams up to 48 and not past it: the tuning settles within a step of it. */
  @Test
  void aRunSettlesWhereMoreStreamsStopGivingMore() {
    State s = TUNING.start(8);
    int[] seen = new int[40];
    for (int w = 0; w < seen.length; w++) {
      double rate = Math.min(s.limit(), 48) * 10.0; // 10 MB/s a stream, 480 at most
      s = TUNING.next(s, new Window(rate, true, 40, 0));
      seen[w] = s.limit();
    }
    int held = 0;
    for (int w = 20; w < seen.length; w++) if (seen[w] >= 32 && seen[w] <= 80) held++;
    assertThat(held).as("windows 20-39 between 32 and 80 streams: %s", java.util.Arrays.toString(seen)).isEqualTo(20);
  }

  /** A store that throttles past 24 streams: the tuning keeps below it most of the time, probing now and then. */
  @Test
  void aStoreThatPushesBackKeepsTheStreamsUnderItsThreshold() {
    State s = TUNING.start(64);
    int over = 0;
    for (int w = 0; w < 60; w++) {
      boolean throttled = s.limit() > 24;
      if (w >= 10 && throttled) over++;
      s = TUNING.next(s, new Window(Math.min(s.limit(), 24) * 10.0, true, 40, throttled ? 3 : 0));
    }
    assertThat(over).as("windows 10-59 over the threshold").isLessThanOrEqualTo(10);
  }

  /** The gate holds a range back only while its streams are busy, and tunes at each window's end. */
  @Test
  void theGateLetsAsManyRangesAsItsLimitAndTunesAtWindowsEnds() throws Exception {
    AtomicLong now = new AtomicLong();
    StreamGate gate = new StreamGate(TUNING, 4, 1_000, now::get);
    for (int i = 0; i < 4; i++) assertThat(gate.acquire()).isEqualTo(4);
    Thread waiting = new Thread(() -> {
      try {
        gate.acquire();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    waiting.start();
    Thread.sleep(50);
    assertThat(waiting.isAlive()).as("a fifth range waits").isTrue();
    gate.moving(4_000);
    now.set(1_000); // a window of 1 µs: 4,000 bytes, every stream busy and a range waiting
    gate.release(0, false);
    waiting.join(5_000);
    assertThat(waiting.isAlive()).isFalse();
    assertThat(gate.limit()).as("the first window doubles").isEqualTo(8);
    StreamGate fixed = StreamGate.fixed(3);
    for (int i = 0; i < 10; i++) assertThat(fixed.acquire()).as("a fixed gate holds nothing back").isEqualTo(3);
  }
}
