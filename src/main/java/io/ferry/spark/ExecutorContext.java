package io.ferry.spark;

import io.ferry.copy.Backoff;
import io.ferry.copy.RangeCopier;
import io.ferry.destination.FileDestination;
import io.ferry.source.S3Clients;
import io.ferry.source.S3RangeSource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import org.apache.spark.SparkEnv;

/** Builds the executor-side parts from {@link CopySettings}; clients come from the per-JVM cache. */
final class ExecutorContext {
  private ExecutorContext() {}

  static FileDestination destination(CopySettings settings) {
    return new FileDestination(Path.of(settings.destinationRoot()), settings.runId());
  }

  static RangeCopier copier(CopySettings settings) {
    var copy = settings.copy();
    var client = S3Clients.data(settings.source().endpoint(), copy.streamsPerTask(), copy.stallTimeout());
    return new RangeCopier(new S3RangeSource(client, settings.source().bucket()), destination(settings), copy.retries(),
        new Backoff(copy.backoff(), copy.maxBackoff()), copy.bufferSize(), executorId(), host());
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
