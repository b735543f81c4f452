package io.ferry.spark;

import io.ferry.copy.ObjectCommitter;
import io.ferry.copy.ObjectResult;
import io.ferry.copy.PartTally;
import io.ferry.source.S3Errors;
import org.apache.spark.api.java.function.Function;

/**
 * COMMIT, on the executors: an object whose parts all arrived is made visible (fsync + rename into place, or
 * CompleteMultipartUpload with every part's ETag in order); any other is aborted (temp file removed, or
 * AbortMultipartUpload), leaving nothing at its final name.
 */
public final class CommitFunction implements Function<PartTally, ObjectResult> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;

  public CommitFunction(CopySettings settings) {
    this.settings = settings;
  }

  @Override
  public ObjectResult call(PartTally tally) {
    ObjectCommitter committer = ExecutorContext.committer(settings);
    String error = tally.firstError();
    if (tally.complete()) {
      try {
        committer.commit(tally);
        return new ObjectResult(tally.object(), tally.destination(), tally.partCount(), tally.bytes(), ObjectResult.Status.COPIED, "");
      } catch (Exception e) {
        error = "commit failed: " + S3Errors.describe(e);
      }
    } else if (error.isEmpty()) {
      error = "only " + tally.okParts().size() + " of " + tally.partCount() + " parts arrived";
    }
    try {
      committer.abort(tally);
    } catch (Exception e) {
      error = error + "; the abort failed too: " + S3Errors.describe(e);
    }
    return new ObjectResult(tally.object(), tally.destination(), tally.partCount(), tally.bytes(), ObjectResult.Status.FAILED, error);
  }
}
