package io.ferry.spark;

import io.ferry.commit.Committer;
import io.ferry.commit.ObjectResult;
import io.ferry.commit.PartTally;
import io.ferry.copy.RangeCopier;
import io.ferry.plan.RangeTask;
import io.ferry.store.ByteRange;
import io.ferry.store.checksums.Checksum;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.FlatMapFunction;

/** COMMIT, on the executors: the partition's objects completed or aborted ({@link Committer}). */
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
    return new Committer(ExecutorContext.destination(settings), settings.copy().streamsPerTask(), ExecutorContext.retrier(settings),
        tally -> recopy(ExecutorContext.copier(settings), tally)).commit(list).iterator();
  }

  /** Every part of the object copied again into its upload, one after another (a repair is rare: keep it simple). */
  public static PartTally recopy(RangeCopier copier, PartTally tally) {
    Checksum expected = Checksum.parse(tally.expected());
    PartTally again = null;
    for (Map.Entry<Integer, PartTally.Part> p : tally.parts().entrySet()) {
      RangeTask range = new RangeTask(tally.object(), p.getKey(), tally.partCount(), new ByteRange(p.getValue().offset(),
          p.getValue().length()));
      PartTally one = PartTally.of(copier.copy(-1, range, tally.upload(), expected));
      again = again == null ? one : again.merge(one);
    }
    return again;
  }
}
