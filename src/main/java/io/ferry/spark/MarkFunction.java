package io.ferry.spark;

import io.ferry.commit.ObjectResult;
import io.ferry.store.Destination;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import io.ferry.store.VersionedWrites;
import io.ferry.store.retry.Failures;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;

/**
 * The delete markers of a replay's generation ({@code source.versions = all} into a bucket), on the executors: each
 * key marked deleted at the destination, as its history at the source was, once every version before it is there.
 */
public final class MarkFunction implements FlatMapFunction<Iterator<StoreObject>, ObjectResult> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;

  public MarkFunction(CopySettings settings) {
    this.settings = settings;
  }

  @Override
  public Iterator<ObjectResult> call(Iterator<StoreObject> markers) throws StoreFailure {
    Destination destination = ExecutorContext.destination(settings);
    VersionedWrites versions = destination.versions().orElseThrow(() -> new StoreFailure(StoreFailure.Kind.FATAL,
        "the destination " + settings.destination().describe() + " keeps no versions"));
    var retrier = ExecutorContext.retrier(settings);
    List<ObjectResult> out = new ArrayList<>();
    markers.forEachRemaining(m -> {
      String at = destination.location(m);
      try {
        retrier.run(() -> versions.markDeleted(m));
        out.add(ObjectResult.row(m, at, ObjectResult.Status.COPIED, "", "delete-marker"));
      } catch (IOException e) {
        out.add(ObjectResult.failed(m, at, 0, 0, "its delete marker could not be written: " + Failures.describe(e)));
      }
    });
    return out.iterator();
  }
}
