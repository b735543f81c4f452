package io.ferry.commit;

import io.ferry.copy.Concurrently;
import io.ferry.store.Destination;
import io.ferry.store.Failures;
import io.ferry.store.Retrier;
import java.util.List;

/**
 * COMMIT: an object whose parts all arrived is completed (fsync and rename into place, CompleteMultipartUpload with
 * every part's ETag in order); any other is aborted (temp file removed, AbortMultipartUpload), leaving nothing at its
 * final name. A batch (one Spark task's objects) is committed on {@code threads} threads, so fsyncs and completions
 * overlap, then the destination flushes what it deferred (each directory renamed into fsynced once). Free of Spark.
 */
public final class Committer {
  private final Destination destination;
  private final int threads;
  private final Retrier retrier;

  /** @param retrier the job's retry policy for completions and aborts */
  public Committer(Destination destination, int threads, Retrier retrier) {
    this.destination = destination;
    this.threads = threads;
    this.retrier = retrier;
  }

  public List<ObjectResult> commit(List<PartTally> tallies) throws Exception {
    List<ObjectResult> results = Concurrently.map(tallies, threads, "ferry-commit", this::commit);
    destination.flush();
    return results;
  }

  ObjectResult commit(PartTally tally) {
    String error = tally.firstError();
    if (tally.complete()) {
      try {
        retrier.call(() -> {
          destination.complete(tally.upload(), tally.receipts());
          return null;
        });
        return new ObjectResult(tally.object(), tally.location(), tally.partCount(), tally.bytes(), ObjectResult.Status.COPIED, "");
      } catch (Exception e) {
        error = "commit failed: " + Failures.describe(e);
      }
    } else if (error.isEmpty()) {
      error = "only " + tally.okParts().size() + " of " + tally.partCount() + " parts arrived";
    }
    try {
      retrier.call(() -> {
        destination.abort(tally.upload());
        return null;
      });
    } catch (Exception e) {
      error = error + "; the abort failed too: " + Failures.describe(e);
    }
    return new ObjectResult(tally.object(), tally.location(), tally.partCount(), tally.bytes(), ObjectResult.Status.FAILED, error);
  }
}
