package io.ferry.spark;

import io.ferry.config.StoreKind;
import io.ferry.copy.Backoff;
import io.ferry.copy.CopyMethod;
import io.ferry.copy.ObjectCommitter;
import io.ferry.copy.PartTally;
import io.ferry.copy.RangeCopier;
import io.ferry.copy.RangeSource;
import io.ferry.copy.RangeTransfer;
import io.ferry.copy.ServerSideCopy;
import io.ferry.copy.StreamToBucket;
import io.ferry.copy.StreamToFile;
import io.ferry.destination.FileDestination;
import io.ferry.destination.S3Destination;
import io.ferry.source.FileRangeSource;
import io.ferry.source.S3Clients;
import io.ferry.source.S3RangeSource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.SparkEnv;

/** Builds the executor-side parts from {@link CopySettings}; clients come from the per-JVM cache. */
public final class ExecutorContext {
  private ExecutorContext() {}

  public static RangeSource source(CopySettings s) {
    if (s.source().kind() == StoreKind.FILE) return new FileRangeSource(Path.of(s.source().path()));
    return new S3RangeSource(S3Clients.requests(s.source().endpoint(), connections(s), s.copy().stallTimeout()),
        S3Clients.data(s.source().endpoint(), connections(s), s.copy().stallTimeout()), s.source().bucket());
  }

  public static FileDestination fileDestination(CopySettings s) {
    return new FileDestination(Path.of(s.destination().path()), s.runId());
  }

  public static S3Destination s3Destination(CopySettings s) {
    return new S3Destination(S3Clients.data(s.destination().endpoint(), connections(s), s.copy().stallTimeout()),
        S3Clients.requests(s.destination().endpoint(), connections(s), s.copy().stallTimeout()), s.destination());
  }

  /**
   * The connection pool of the one client an executor JVM shares between its concurrent tasks: every task slot runs
   * streams-per-task streams, so a pool of only streams-per-task connections would make the tasks queue for it.
   */
  static int connections(CopySettings s) {
    SparkEnv env = SparkEnv.get();
    int slots = env == null ? Runtime.getRuntime().availableProcessors()
        : env.conf().getInt("spark.executor.cores", Runtime.getRuntime().availableProcessors());
    return s.copy().streamsPerTask() * Math.max(1, slots);
  }

  static RangeCopier copier(CopySettings s) {
    RangeSource source = source(s);
    RangeTransfer transfer = switch (CopyMethod.choose(s.source(), s.destination())) {
      case STREAM_TO_FILE -> new StreamToFile(source, fileDestination(s), s.copy().bufferSize());
      case STREAM_TO_BUCKET -> new StreamToBucket(source, s3Destination(s));
      case SERVER_SIDE_COPY -> new ServerSideCopy(s3Destination(s), s.source().bucket());
    };
    return new RangeCopier(range -> transfer, s.copy().retries(), new Backoff(s.copy().backoff(), s.copy().maxBackoff()),
        executorId(), host());
  }

  static ObjectCommitter committer(CopySettings s) {
    if (s.destination().kind() == StoreKind.FILE) {
      FileDestination files = fileDestination(s);
      Set<Path> directories = ConcurrentHashMap.newKeySet();
      return new ObjectCommitter() {
        @Override
        public void commit(PartTally o) throws Exception {
          directories.add(files.commitUnsynced(o.object()));
        }

        @Override
        public void finish() {
          directories.forEach(FileDestination::syncDirectory); // once per directory, not once per file
        }

        @Override
        public void abort(PartTally o) throws Exception {
          files.abort(o.object());
        }
      };
    }
    S3Destination bucket = s3Destination(s);
    return new ObjectCommitter() {
      @Override
      public void commit(PartTally o) {
        // A whole object was written by its one PutObject/CopyObject; a multipart one becomes visible now.
        if (!o.uploadId().isEmpty()) bucket.completeUpload(o.object(), o.uploadId(), o.partEtags());
      }

      @Override
      public void abort(PartTally o) {
        if (!o.uploadId().isEmpty()) bucket.abortUpload(o.object(), o.uploadId());
      }
    };
  }

  static String executorId() {
    SparkEnv env = SparkEnv.get();
    return env == null ? "unknown" : env.executorId();
  }

  static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown";
    }
  }
}
