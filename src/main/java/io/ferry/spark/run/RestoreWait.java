package io.ferry.spark.run;

import io.ferry.config.ArchivedConfig;
import io.ferry.report.RunSummary;
import io.ferry.spark.JobFailure;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * One invocation that waits for its restores ({@code source.restore.wait}): while a run ends with objects restoring,
 * it sleeps ({@code poll}, doubling, at most 30 minutes) and runs again, so that each run lists the source anew and
 * copies what was restored since, as a rerun by hand would. Every run is a whole, ordinary run with a report of its
 * own; the last one's summary is the answer.
 */
final class RestoreWait {
  private RestoreWait() {}

  /** Another whole run of the job. */
  @FunctionalInterface
  interface Run {
    RunSummary run() throws JobFailure, IOException;
  }

  @FunctionalInterface
  interface Sleep {
    void sleep(Duration d) throws IOException;
  }

  static final Sleep SLEEP = d -> {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for restores");
    }
  };

  static RunSummary until(ArchivedConfig archived, RunSummary first, Run again, Sleep sleep, LongSupplier now, PrintStream out)
      throws JobFailure, IOException {
    long deadline = now.getAsLong() + archived.waitFor().toMillis();
    RunSummary last = first;
    for (int waited = 0; last.pending(); waited++) {
      long left = deadline - now.getAsLong();
      if (left <= 0) break;
      Duration pause = archived.pollAfter(waited);
      if (pause.toMillis() > left) pause = Duration.ofMillis(left);
      out.printf("WAIT  %d objects restoring at the source: listing again in %s (source.restore.wait ends at %s)%n",
          last.objects().restoring(), pause, Instant.ofEpochMilli(deadline));
      sleep.sleep(pause);
      last = again.run();
    }
    return last;
  }
}
