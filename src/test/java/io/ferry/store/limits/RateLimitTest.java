package io.ferry.store.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateLimitTest {
  @Test
  void threadsSharingALimitTogetherStayUnderIt() throws Exception {
    RateLimit limit = new RateLimit(2000); // units per second
    List<Thread> threads = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < 4; t++) {
      Thread thread = new Thread(() -> {
        try {
          for (int i = 0; i < 25; i++) limit.acquire(10); // 4 x 25 x 10 = 1000 units: half a second at the rate
        } catch (java.io.InterruptedIOException e) {
          throw new IllegalStateException(e);
        }
      });
      thread.start();
      threads.add(thread);
    }
    for (Thread t : threads) t.join();
    assertThat((System.nanoTime() - start) / 1e9).isGreaterThanOrEqualTo(0.49);
  }

  @Test
  void noLimitNeverWaitsAndALimitCanBeLiftedOrChanged() throws Exception {
    RateLimit limit = new RateLimit(0);
    long start = System.nanoTime();
    limit.acquire(Long.MAX_VALUE / 2);
    assertThat(System.nanoTime() - start).isLessThan(1_000_000_000L);
    assertThat(limit.limited()).isFalse();
    limit.set(1e6);
    assertThat(limit.limited()).isTrue();
    limit.set(0);
    assertThat(limit.limited()).isFalse();
  }

  @Test
  void anIdlePauseIsNotSavedUpAsABurst() throws Exception {
    RateLimit limit = new RateLimit(1000);
    limit.acquire(100); // 0.1 s of slot
    Thread.sleep(300);
    long start = System.nanoTime();
    limit.acquire(200); // the pause earned nothing: 0.2 s
    assertThat((System.nanoTime() - start) / 1e9).isGreaterThanOrEqualTo(0.19);
  }
}
