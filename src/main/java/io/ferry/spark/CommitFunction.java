package io.ferry.spark;

import io.ferry.copy.ObjectResult;
import io.ferry.copy.PartTally;
import io.ferry.destination.FileDestination;
import io.ferry.source.S3Errors;
import org.apache.spark.api.java.function.Function;

/**
 * COMMIT, on the executors (the destination is a shared mount): an object whose parts all arrived is fsynced and
 * renamed into place; any other is aborted, leaving nothing at its final name and no temp file.
 */
public final class CommitFunction implements Function<PartTally, ObjectResult> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;

  public CommitFunction(CopySettings settings) {
    this.settings = settings;
  }

  @Override
  public ObjectResult call(PartTally tally) {
    FileDestination destination = ExecutorContext.destination(settings);
    String error = tally.firstError();
    if (tally.complete()) {
      try {
        destination.commit(tally.object());
        return new ObjectResult(tally.object(), tally.destination(), tally.partCount(), tally.bytes(), ObjectResult.Status.COPIED, "");
      } catch (Exception e) {
        error = "commit failed: " + S3Errors.describe(e);
      }
    } else if (error.isEmpty()) {
      error = "only " + tally.okParts().cardinality() + " of " + tally.partCount() + " parts arrived";
    }
    try {
      destination.abort(tally.object());
    } catch (Exception e) {
      error = error + "; removing the temp file also failed: " + S3Errors.describe(e);
    }
    return new ObjectResult(tally.object(), tally.destination(), tally.partCount(), tally.bytes(), ObjectResult.Status.FAILED, error);
  }
}
