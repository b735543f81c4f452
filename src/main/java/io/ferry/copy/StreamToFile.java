package io.ferry.copy;

import io.ferry.destination.FileDestination;
import io.ferry.plan.RangeTask;
import io.ferry.source.ThreadBuffers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/** Reads a range and writes it with positioned writes into the object's temp file. Resumes at the last byte written. */
public final class StreamToFile implements RangeTransfer {
  /**
   * A range at least this long is pushed to disk as soon as it is written, overlapping its disk writes with the other
   * ranges' reads (the commit's fsync then finds little left); a smaller one is left to the commit, where a task's
   * fsyncs run in parallel (2,000 × 256 KiB to files: copy stage 7.8 s with a flush per range, see bench/results).
   */
  static final long FLUSH_AT_LEAST = 8L << 20;

  private static final ThreadBuffers BUFFERS = new ThreadBuffers();

  private final RangeSource source;
  private final FileDestination destination;
  private final int bufferSize;

  public StreamToFile(RangeSource source, FileDestination destination, int bufferSize) {
    this.source = source;
    this.destination = destination;
    this.bufferSize = bufferSize;
  }

  @Override
  public String method() {
    return source.verb() + "+write";
  }

  @Override
  public boolean resumable() {
    return true;
  }

  @Override
  public String destination(RangeTask task) throws Exception {
    return destination.finalPath(task.object()).toString();
  }

  @Override
  public String attempt(RangeTask task, Progress progress) throws Exception {
    try (FileDestination.RangeSink sink = destination.open(task)) {
      long done = progress.bytes();
      if (done == task.range().length()) return "";
      int chunk = (int) Math.min(bufferSize, task.range().length());
      byte[] buffer = BUFFERS.get(chunk);
      progress.requestStarted();
      InputStream in = source.open(task.object(), task.range().skip(done));
      try (InputStream metered = new MeteredInputStream(in, progress, task.range().length() - done)) {
        long position = task.range().offset() + done;
        for (int n; (n = metered.read(buffer, 0, chunk)) > 0; ) {
          try {
            sink.write(ByteBuffer.wrap(buffer, 0, n), position);
          } catch (IOException e) {
            throw new LocalWriteException(e);
          }
          position += n;
        }
        if (task.range().length() >= FLUSH_AT_LEAST) {
          try {
            sink.flush();
          } catch (IOException e) {
            throw new LocalWriteException(e);
          }
        }
      } catch (Exception e) {
        source.discard(in);
        throw e;
      }
      return "";
    }
  }

  /** The destination filesystem refused a write (disk full, I/O error): not a network fault, never retried. */
  public static final class LocalWriteException extends IOException {
    private static final long serialVersionUID = 1L;

    LocalWriteException(IOException cause) {
      super("write failed: " + cause.getMessage(), cause);
    }
  }
}
