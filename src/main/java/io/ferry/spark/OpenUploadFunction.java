package io.ferry.spark;

import io.ferry.copy.RangeSource;
import io.ferry.destination.S3Destination;
import io.ferry.plan.SourceObject;
import io.ferry.source.S3Errors;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import scala.Tuple2;

/**
 * OPEN, on the executors: for each split object, reads its metadata at the source and opens a multipart upload at
 * the destination with it. Returns (object, upload id), or (object, FAILED + reason) so the driver can abort the
 * uploads that did open.
 */
public final class OpenUploadFunction implements FlatMapFunction<Iterator<SourceObject>, Tuple2<SourceObject, String>> {
  private static final long serialVersionUID = 1L;
  public static final String FAILED = "\0failed: ";
  private final CopySettings settings;

  public OpenUploadFunction(CopySettings settings) {
    this.settings = settings;
  }

  @Override
  public Iterator<Tuple2<SourceObject, String>> call(Iterator<SourceObject> objects) {
    RangeSource source = ExecutorContext.source(settings);
    S3Destination destination = ExecutorContext.s3Destination(settings);
    List<Tuple2<SourceObject, String>> out = new ArrayList<>();
    while (objects.hasNext()) {
      SourceObject object = objects.next();
      try {
        out.add(new Tuple2<>(object, destination.openUpload(object, source.metadata(object))));
      } catch (Exception e) {
        out.add(new Tuple2<>(object, FAILED + S3Errors.describe(e)));
      }
    }
    return out.iterator();
  }
}
