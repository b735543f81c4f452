package io.ferry.copy;

import io.ferry.plan.RangeTask;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads a range (ranged GET, or positioned reads of a file) and streams it into a bucket: a whole small object as one
 * PutObject, a part of a large one as UploadPart, with a known content length and no buffering of the part. An upload
 * cannot resume part-way, so a failed attempt sends the range again.
 */
public final class StreamToBucket implements RangeTransfer {
  private final RangeSource source;
  private final BucketSink sink;

  public StreamToBucket(RangeSource source, BucketSink sink) {
    this.source = source;
    this.sink = sink;
  }

  @Override
  public String method() {
    return source.verb() + "+upload";
  }

  @Override
  public boolean resumable() {
    return false;
  }

  @Override
  public String destination(RangeTask task) {
    return sink.destination(task.object());
  }

  @Override
  public String attempt(RangeTask task, Progress progress) throws Exception {
    AtomicReference<InputStream> opened = new AtomicReference<>();
    BucketSink.Body body = () -> {
      InputStream previous = opened.get();
      if (previous != null) source.discard(previous); // the client asked to resend: start the range over
      progress.restart();
      progress.requestStarted();
      InputStream in = task.range().length() == 0 ? InputStream.nullInputStream() : source.open(task.object(), task.range());
      opened.set(in);
      return new MeteredInputStream(in, progress, task.range().length());
    };
    boolean sent = false;
    try {
      String etag;
      if (task.wholeObject()) {
        // The metadata comes with the first GET's response, so open it before the request that needs it.
        InputStream first = body.open();
        ObjectMetadata metadata = task.range().length() == 0
            ? source.metadata(task.object()) : source.metadataOf(opened.get(), task.object());
        boolean[] used = {false};
        etag = sink.putObject(task.object(), () -> {
          if (!used[0]) {
            used[0] = true;
            return first;
          }
          return body.open();
        }, task.range().length(), metadata);
      } else {
        etag = sink.uploadPart(task.object(), task.uploadId(), task.partNumber(), body, task.range().length());
      }
      sent = true;
      return etag;
    } finally {
      InputStream last = opened.get();
      // A range read to its end gives its connection back to the pool; one abandoned part-way closes it.
      if (last != null && sent) {
        try {
          last.close();
        } catch (java.io.IOException e) {
          // the range is sent; its connection is only not reused
        }
      } else if (last != null) {
        source.discard(last);
      }
    }
  }
}
