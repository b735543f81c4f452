package io.ferry.spark;

import io.ferry.copy.Concurrently;
import io.ferry.plan.Keyed;
import io.ferry.store.RangeReader;
import io.ferry.store.StoreObject;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.retry.Retrier;
import io.ferry.verify.Comparison;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;

/**
 * VERIFY's HEADs, on the executors: each pair's checksums as both buckets keep them, {@code streams-per-task} pairs at a
 * time, and the verdict where they settle it ({@link Comparison#byStoredChecksums}); a pair they do not settle, or
 * whose HEAD failed, is left to be read.
 */
public final class StoredChecksumFunction implements FlatMapFunction<Iterator<Keyed>, StoredChecksumFunction.Headed> {
  private static final long serialVersionUID = 1L;
  private final CopySettings settings;

  /** A pair, and its verdict from the stored checksums (null: read it). */
  public record Headed(Keyed pair, Comparison.Result settled) implements Serializable {}

  public StoredChecksumFunction(CopySettings settings) {
    this.settings = settings;
  }

  @Override
  public Iterator<Headed> call(Iterator<Keyed> pairs) throws InterruptedException {
    List<Keyed> list = new ArrayList<>();
    pairs.forEachRemaining(list::add);
    RangeReader source = ExecutorContext.source(settings).reader();
    RangeReader destination = ExecutorContext.store(settings.destination().store(), settings).reader();
    Retrier retrier = ExecutorContext.retrier(settings);
    return Concurrently.map(list, settings.copy().streamsPerTask(), "ferry-verify-head", k -> {
      try {
        Checksum a = stored(retrier, source, k.source());
        Checksum b = Comparison.kept(a) ? stored(retrier, destination, k.existing()) : null; // else nothing to compare it with
        return new Headed(k, Comparison.byStoredChecksums(k.source(), a, k.existing(), b));
      } catch (IOException | RuntimeException e) {
        return new Headed(k, null); // read instead: a read that fails says why
      }
    }).iterator();
  }

  private static Checksum stored(Retrier retrier, RangeReader reader, StoreObject object) throws IOException {
    return retrier.call(() -> reader.metadata(object, false).checksum());
  }
}
