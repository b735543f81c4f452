package io.ferry.spark;

import io.ferry.copy.Concurrently;
import io.ferry.copy.ObjectCommitter;
import io.ferry.copy.ObjectResult;
import io.ferry.copy.PartTally;
import io.ferry.source.S3Errors;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;

/**
 * COMMIT, on the executors: an object whose parts all arrived is made visible (fsync + rename into place, or
 * CompleteMultipartUpload with every part's ETag in order); any other is aborted (temp file removed, or
 * AbortMultipartUpload), leaving nothing at its final name. A partition's objects are committed on
 * {@code streams-per-task} threads (fsyncs and completions overlap), then each directory renamed into is fsynced once.
 */
public final class CommitFunction implements FlatMapFunction<Iterator<PartTally>, ObjectResult> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;

  public CommitFunction(CopySettings settings) {
    this.settings = settings;
  }

  @Override
  public Iterator<ObjectResult> call(Iterator<PartTally> tallies) throws Exception {
    List<PartTally> list = new ArrayList<>();
    tallies.forEachRemaining(list::add);
    ObjectCommitter committer = ExecutorContext.committer(settings);
    List<ObjectResult> results = Concurrently.map(list, settings.copy().streamsPerTask(), "ferry-commit", t -> commit(committer, t));
    committer.finish();
    return results.iterator();
  }

  private static ObjectResult commit(ObjectCommitter committer, PartTally tally) {
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
