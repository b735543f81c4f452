package io.ferry.store.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ThrottleTest {
  @Test
  void aThrottlingAnswerHalvesTheLimitOncePerCooldownAndSuccessesBringItBack() throws Exception {
    AtomicLong now = new AtomicLong();
    Throttle throttle = new Throttle(16, 1000, now::get);
    for (int i = 0; i < 4; i++) throttle.acquire();
    for (int i = 0; i < 4; i++) throttle.release(true); // a burst of 503s to requests sent together: one signal
    assertThat(throttle.limit()).isEqualTo(8);
    assertThat(throttle.throttled()).isEqualTo(4);
    now.addAndGet(TimeUnit.MILLISECONDS.toNanos(1001));
    throttle.acquire();
    throttle.release(true);
    assertThat(throttle.limit()).isEqualTo(4);
    assertThat(throttle.lowest()).isEqualTo(4);
    int successes = 0;
    while (throttle.limit() < 16) {
      throttle.acquire();
      throttle.release(false);
      successes++;
    }
    assertThat(successes).as("additive increase: about limit successes per step").isBetween(4 + 5 + 6, 4 + 5 + 6 + 16 * 12);
    assertThat(throttle.decreases()).isEqualTo(2);
  }

  @Test
  void requestsBeyondTheLimitWaitForRoom() throws Exception {
    Throttle throttle = new Throttle(2, 1000);
    throttle.acquire();
    throttle.acquire();
    CountDownLatch third = new CountDownLatch(1);
    Thread waiter = new Thread(() -> {
      try {
        throttle.acquire();
        third.countDown();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    waiter.start();
    assertThat(third.await(200, TimeUnit.MILLISECONDS)).as("no room while two are in flight").isFalse();
    throttle.release(false);
    assertThat(third.await(5, TimeUnit.SECONDS)).isTrue();
    waiter.join();
  }

  @Test
  void raisingTheMaximumGivesRoomAtOnceUnlessThrottled() {
    Throttle throttle = new Throttle(4, 1000);
    throttle.raiseMax(32);
    assertThat(throttle.limit()).isEqualTo(32);
    throttle.raiseMax(8);
    assertThat(throttle.limit()).isEqualTo(32);
  }
}
