package io.ferry.config;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * How executors move the bytes of each range.
 *
 * @param streamsPerTask the streams of a task; with {@code autoStreams}, those it starts with
 * @param autoStreams the copy tunes the streams of each executor from the aggregate rate it measures, up to
 *     {@code maxStreamsPerTask} per task slot ({@code copy.streams-per-task = auto})
 */
public record CopyConfig(int streamsPerTask, boolean autoStreams, int maxStreamsPerTask, int retries, Duration backoff,
    Duration maxBackoff, Duration stallTimeout, boolean skipUnchanged, int bufferSize) implements Serializable {
  /** Streams per task that {@code auto} starts with, the fixed default's. */
  public static final int AUTO_START = 16;

  /** The fewest streams per task that {@code auto} goes down to. */
  public static final int AUTO_MIN = 2;

  public CopyConfig {
    if (streamsPerTask < 1) throw new IllegalArgumentException("streamsPerTask must be positive: " + streamsPerTask);
    if (maxStreamsPerTask < streamsPerTask) throw new IllegalArgumentException("maxStreamsPerTask below streamsPerTask");
    if (retries < 0) throw new IllegalArgumentException("retries must not be negative: " + retries);
    Objects.requireNonNull(backoff, "backoff is null");
    Objects.requireNonNull(maxBackoff, "maxBackoff is null");
    Objects.requireNonNull(stallTimeout, "stallTimeout is null");
    if (bufferSize < 1) throw new IllegalArgumentException("bufferSize must be positive: " + bufferSize);
  }

  /** A fixed number of streams per task. */
  public CopyConfig(int streamsPerTask, int retries, Duration backoff, Duration maxBackoff, Duration stallTimeout, boolean skipUnchanged,
      int bufferSize) {
    this(streamsPerTask, false, streamsPerTask, retries, backoff, maxBackoff, stallTimeout, skipUnchanged, bufferSize);
  }

  /** The most streams a task runs: its threads. */
  public int threadsPerTask() {
    return autoStreams ? maxStreamsPerTask : streamsPerTask;
  }
}
