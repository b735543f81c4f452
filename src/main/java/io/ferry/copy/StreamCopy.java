package io.ferry.copy;

import io.ferry.plan.RangeTask;
import io.ferry.store.Body;
import io.ferry.store.Writing;
import io.ferry.store.ObjectMetadata;
import io.ferry.store.RangeReader;
import io.ferry.store.Upload;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads a range (ranged GET, positioned file reads) and streams it into the destination's write (positioned writes
 * into a temp file, PutObject or UploadPart with a known length), never holding the range in memory. A destination
 * with resumable writes continues a failed range at its last byte; any other takes the range again from its start.
 * An object copied whole is checked against what its source says of it (a stored checksum, an MD5 ETag) as its last
 * byte is read, so a mismatching PutObject never completes.
 */
public final class StreamCopy implements RangeTransfer {
  private final RangeReader source;
  private final Writing destination;
  private final boolean resumable;

  public StreamCopy(RangeReader source, Writing destination) {
    this.source = source;
    this.destination = destination;
    this.resumable = destination.capabilities().resumableWrites();
  }

  @Override
  public String method() {
    return source.verb() + (resumable ? "+write" : "+upload");
  }

  /**
   * A part continues at its last byte where the destination writes in place: any attempt writes the same bytes at the
   * same positions of its opening's file. An object written whole starts over, into a file of its own: an attempt
   * that continued another's file (a speculative or zombie attempt had replaced it) could leave a hole of zeros.
   */
  @Override
  public boolean resumable(RangeTask task) {
    return resumable && !task.wholeObject();
  }

  @Override
  public String location(RangeTask task) {
    return destination.location(task.object());
  }

  @Override
  public String attempt(RangeTask task, Upload upload, Progress progress) throws IOException {
    boolean resume = resumable(task);
    long from = resume ? progress.bytes() : 0;
    AtomicReference<MeteredInputStream> opened = new AtomicReference<>();
    Body body = () -> {
      MeteredInputStream previous = opened.get();
      if (previous != null) previous.close(); // the destination asked to resend: start the range over
      if (!resume) progress.restart();
      progress.requestStarted();
      long length = task.range().length() - from;
      InputStream in = length == 0 ? InputStream.nullInputStream() : source.open(task.object(), task.range().skip(from));
      if (from == 0 && task.wholeObject() && length > 0) progress.expect(source.expected(in, task.object()));
      MeteredInputStream metered = new MeteredInputStream(in, progress, length, source::discard);
      opened.set(metered);
      return metered;
    };
    // An object written whole carries its metadata: from the answer of its GET, or (empty) a request of its own.
    ObjectMetadata.Lazy metadata = () -> Carried.read(source, destination, task.object(),
        task.range().length() == 0 || opened.get() == null ? null : opened.get().source());
    try {
      return destination.write(upload, task.partNumber(), task.range(), from, body, metadata);
    } finally {
      MeteredInputStream last = opened.get();
      if (last != null) last.close(); // read to its end: back to the pool; abandoned part-way: discarded
    }
  }
}
