package io.ferry.spark;

import io.ferry.config.BucketConfig;
import io.ferry.config.DirectoryConfig;
import io.ferry.plan.Decision;
import io.ferry.plan.Keyed;
import io.ferry.plan.Triage;
import io.ferry.store.Destination;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.listing.ObjectFilter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.FlatMapFunction;
import scala.Tuple2;

/** Each key decided by the destination's rules and the job's selection; keys with nothing to do are dropped. */
public final class TriageFunction implements FlatMapFunction<Iterator<Tuple2<String, Keyed>>,
    Decision> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;
  private final boolean hierarchical;
  private final boolean skipUnchanged;
  /** Keys that differ only in case share the partition ({@link FoldedKeys}): those one file here are rejected, all of them. */
  private final boolean twins;

  public TriageFunction(CopySettings settings, boolean hierarchical, boolean skipUnchanged, boolean twins) {
    this.settings = settings;
    this.hierarchical = hierarchical;
    this.skipUnchanged = skipUnchanged;
    this.twins = twins;
  }

  @Override
  public Iterator<Decision> call(Iterator<Tuple2<String, Keyed>> keys) throws IOException {
    Destination destination = ExecutorContext.destination(settings);
    ObjectFilter filter = new ObjectFilter(settings.source().selection());
    List<Decision> out = new ArrayList<>();
    var archived = settings.source().archived().policy();
    Triage.Restamp restamp = restamp(settings);
    keys.forEachRemaining(t -> out.addAll(Triage.decide(t._2(), hierarchical, destination, filter, skipUnchanged, archived, restamp)));
    return (twins ? Triage.oneFileApart(out, destination) : out).iterator();
  }


  /**
   * Into a directory from a bucket, the time a copy was given: the object's {@code mtime} metadata where it has one
   * (rclone's, Ferry's from a directory), read with a HEAD, else its listed time.
   */
  public static Triage.Restamp restamp(CopySettings settings) {
    if (!(settings.source().store() instanceof BucketConfig && settings.destination().store() instanceof DirectoryConfig)) {
      return Triage.Restamp.NONE;
    }
    var reader = ExecutorContext.source(settings).reader();
    var retrier = ExecutorContext.retrier(settings);
    return source -> {
      ObjectMetadata metadata = retrier.call(() -> reader.metadata(source, false));
      for (Map.Entry<String, String> e : metadata.userMetadata().entrySet()) {
        if (!e.getKey().equalsIgnoreCase(ObjectMetadata.MTIME)) continue;
        long millis = ObjectMetadata.mtimeMillis(e.getValue());
        return millis == Long.MIN_VALUE ? source : source.withTime(millis);
      }
      return source;
    };
  }
}
