package io.ferry.copy;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.plan.RangeTask;
import io.ferry.store.retry.Backoff;
import io.ferry.store.ByteRange;
import io.ferry.store.retry.Retrier;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one retry layer of a range, with a transfer that fails as told (the fault injection of this test). */
class RangeCopierTest {
  private static final StoreObject OBJECT = new StoreObject("src/k", "k", 100, "e", 0);
  private static final RangeTask PART = new RangeTask(OBJECT, 2, 4, new ByteRange(25, 25));
  private static final Upload UPLOAD = new Upload(OBJECT, "upload-1");

  /** Each attempt moves {@code bytes} of the range (from where the last stopped, when resumable), then fails or not. */
  private static final class ScriptedTransfer implements RangeTransfer {
    final Deque<Exception> failures;
    final boolean resumable;
    final List<Long> startedAt = new ArrayList<>();
    final int bytesPerAttempt;

    ScriptedTransfer(boolean resumable, int bytesPerAttempt, Exception... failures) {
      this.resumable = resumable;
      this.bytesPerAttempt = bytesPerAttempt;
      this.failures = new ArrayDeque<>(List.of(failures));
    }

    @Override
    public String method() {
      return "scripted";
    }

    @Override
    public boolean resumable(RangeTask task) {
      return resumable;
    }

    @Override
    public String location(RangeTask task) {
      return "dest/" + task.object().relativeKey();
    }

    @Override
    public String attempt(RangeTask task, Upload upload, Progress progress) throws java.io.IOException {
      startedAt.add(progress.bytes());
      progress.requestStarted();
      long left = task.range().length() - progress.bytes();
      int n = (int) Math.min(left, failures.isEmpty() ? left : bytesPerAttempt);
      progress.moved(new byte[n], 0, n);
      if (!failures.isEmpty()) {
        Exception e = failures.pop();
        if (e instanceof java.io.IOException io) throw io;
        throw (RuntimeException) e;
      }
      return "etag-" + task.partNumber();
    }
  }

  private static RangeCopier copier(RangeTransfer transfer, int retries) {
    return new RangeCopier(transfer, new Retrier(retries, new Backoff(Duration.ofMillis(1), Duration.ofMillis(2))), "7", "host-a");
  }

  @Test
  void retryableFailuresAreRetriedAndAResumableTransferContinuesWhereItStopped() {
    ScriptedTransfer transfer = new ScriptedTransfer(true, 10, new SocketTimeoutException("stalled"),
        new StoreFailure(StoreFailure.Kind.THROTTLED, "SlowDown (503)"));
    RangeResult r = copier(transfer, 5).copy(3, PART, UPLOAD);
    assertThat(r.status()).isEqualTo(RangeResult.Status.OK);
    assertThat(r.attempts()).isEqualTo(3);
    assertThat(transfer.startedAt).containsExactly(0L, 10L, 20L);
    assertThat(r.bytes()).isEqualTo(25);
    assertThat(r.payloadBytes()).isEqualTo(25);
    assertThat(r.etag()).isEqualTo("etag-2");
    assertThat(r.uploadId()).isEqualTo("upload-1");
    assertThat(List.of(r.taskId(), r.partNumber(), r.partCount())).containsExactly(3L, 2, 4);
    assertThat(List.of(r.destination(), r.executorId(), r.host(), r.method())).containsExactly("dest/k", "7", "host-a", "scripted");
  }

  @Test
  void aTransferThatCannotResumeStartsEveryAttemptOver() {
    ScriptedTransfer transfer = new ScriptedTransfer(false, 10, new IOException("Connection reset"));
    RangeResult r = copier(transfer, 5).copy(0, PART, UPLOAD);
    assertThat(r.status()).isEqualTo(RangeResult.Status.OK);
    assertThat(transfer.startedAt).containsExactly(0L, 0L);
    assertThat(r.payloadBytes()).as("the bytes of the attempt that succeeded").isEqualTo(25);
  }

  @Test
  void bytesCountWhileTheyMoveAreTakenBackByARestartAndSettleToNothingWithTheResult() {
    long mib = Progress.REPORT_STEP;
    StoreObject big = new StoreObject("src/big", "big", 8 * mib, "e", 0);
    RangeTask range = new RangeTask(big, 1, 2, new ByteRange(0, 3 * mib + 5));
    ScriptedTransfer transfer = new ScriptedTransfer(false, (int) (2 * mib + 7), new IOException("Connection reset"));
    List<Long> told = new ArrayList<>();
    RangeResult r = copier(transfer, 5).copy(0, range, new Upload(big, "upload-2"), null, told::add);
    assertThat(r.status()).isEqualTo(RangeResult.Status.OK);
    // each attempt moves its bytes in one read, a step past a MiB: told at once; taken back at the restart and the end
    assertThat(told).containsExactly(2 * mib + 7, -(2 * mib + 7), 3 * mib + 5, -(3 * mib + 5));
  }

  @Test
  void aRangeOfLessThanAStepIsNeverReported() {
    List<Long> told = new ArrayList<>();
    RangeResult r = copier(new ScriptedTransfer(true, 10), 5).copy(0, PART, UPLOAD, null, told::add);
    assertThat(r.bytes()).isEqualTo(25);
    assertThat(told).isEmpty();
  }

  @Test
  void aFatalFailureEndsTheRangeAtOnceWithItsMessage() {
    ScriptedTransfer transfer = new ScriptedTransfer(true, 10, new StoreFailure(StoreFailure.Kind.FATAL, "AccessDenied (403)"));
    RangeResult r = copier(transfer, 5).copy(0, PART, UPLOAD);
    assertThat(r.status()).isEqualTo(RangeResult.Status.FAILED);
    assertThat(r.attempts()).isEqualTo(1);
    assertThat(r.error()).isEqualTo("AccessDenied (403)");
    assertThat(r.bytes()).as("a resumable transfer keeps what it wrote").isEqualTo(10);
    assertThat(r.etag()).isEmpty();
  }

  @Test
  void retriesRunOutAndTheErrorSaysHowManyAttemptsWereMade() {
    ScriptedTransfer transfer = new ScriptedTransfer(false, 5, new IOException("reset 1"), new IOException("reset 2"),
        new IOException("reset 3"));
    RangeResult r = copier(transfer, 2).copy(0, PART, UPLOAD);
    assertThat(r.status()).isEqualTo(RangeResult.Status.FAILED);
    assertThat(r.attempts()).isEqualTo(3);
    assertThat(r.error()).isEqualTo("gave up after 3 attempts: reset 3");
    assertThat(r.bytes()).as("nothing of a non-resumable range counts as delivered").isZero();
  }

  @Test
  void aProgrammingErrorIsNotRetried() {
    ScriptedTransfer transfer = new ScriptedTransfer(true, 1, new IllegalStateException("asked for bytes=0-9, got 200"));
    RangeResult r = copier(transfer, 5).copy(0, PART, UPLOAD);
    assertThat(r.attempts()).isEqualTo(1);
    assertThat(r.error()).isEqualTo("asked for bytes=0-9, got 200");
  }
}
