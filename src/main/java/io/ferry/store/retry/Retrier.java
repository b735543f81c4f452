package io.ferry.store.retry;

import io.ferry.store.limits.Meters;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The job's one retry policy for a request that is not a range transfer (listing pages, HEAD, opening, completing and
 * aborting uploads): a retryable or throttled failure ({@link Failures}) waits with jittered exponential backoff and
 * tries again, up to {@code retries} more times; a fatal one fails at once. Range transfers are retried by the copy
 * with the same policy, resuming where they stopped; nothing else retries, so no request is retried by two layers.
 */
public final class Retrier {
  /** One request. */
  @FunctionalInterface
  public interface Call<T> {
    T call() throws IOException;
  }

  /** One attempt at a request, told its number (from 1): a transfer resumes, or restarts, from what the last one moved. */
  @FunctionalInterface
  public interface Attempt<T> {
    T call(int attempt) throws IOException;
  }

  /** One request with no answer to keep. */
  @FunctionalInterface
  public interface Action {
    void run() throws IOException;
  }

  private final int retries;
  private final Backoff backoff;

  public Retrier(int retries, Backoff backoff) {
    this.retries = retries;
    this.backoff = backoff;
  }

  /** A retrier that never retries (a dry run, a test). */
  public static Retrier once() {
    return new Retrier(0, new Backoff(Duration.ZERO, Duration.ZERO));
  }

  public int retries() {
    return retries;
  }

  public Backoff backoff() {
    return backoff;
  }

  /** As {@link #call}, for a request with no answer to keep. */
  public void run(Action action) throws IOException {
    call(() -> {
      action.run();
      return null;
    });
  }

  /** Runs {@code call} until it succeeds, fails fatally or has been retried {@code retries} times; the last failure is thrown. */
  public <T> T call(Call<T> call) throws IOException {
    return attempts(attempt -> call.call());
  }

  /** As {@link #call}: the one retry loop, for requests and range transfers alike. */
  public <T> T attempts(Attempt<T> call) throws IOException {
    return attempts(call, failure -> { });
  }

  /** As {@link #attempts(Attempt)}, telling {@code retrying} of each failure that is retried. */
  public <T> T attempts(Attempt<T> call, Consumer<Throwable> retrying) throws IOException {
    for (int attempt = 0; ; attempt++) {
      try {
        return call.call(attempt + 1);
      } catch (IOException | RuntimeException e) {
        if (!Failures.isRetryable(e) || attempt >= retries || Thread.currentThread().isInterrupted()) throw e;
        retrying.accept(e);
        Meters.retried();
        try {
          Thread.sleep(backoff.delayMillis(attempt));
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while waiting to retry");
        }
      }
    }
  }
}
