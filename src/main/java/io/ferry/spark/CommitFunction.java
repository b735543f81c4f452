package io.ferry.spark;

import io.ferry.commit.Committer;
import io.ferry.commit.ObjectResult;
import io.ferry.commit.PartTally;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;

/** COMMIT, on the executors: the partition's objects completed or aborted ({@link Committer}). */
final class CommitFunction implements FlatMapFunction<Iterator<PartTally>, ObjectResult> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;

  CommitFunction(CopySettings settings) {
    this.settings = settings;
  }

  @Override
  public Iterator<ObjectResult> call(Iterator<PartTally> tallies) throws Exception {
    List<PartTally> list = new ArrayList<>();
    tallies.forEachRemaining(list::add);
    return new Committer(ExecutorContext.destination(settings), settings.copy().streamsPerTask(), ExecutorContext.retrier(settings)).commit(list).iterator();
  }
}
