package io.ferry.spark;

import io.ferry.config.BucketConfig;
import io.ferry.config.ChangesConfig;
import io.ferry.config.CopyConfig;
import io.ferry.config.DirectoryConfig;
import io.ferry.config.ObjectWrites;
import io.ferry.config.SourceConfig;
import io.ferry.config.StoreConfig;
import io.ferry.copy.CopyMethod;
import io.ferry.copy.InOrderDigests;
import io.ferry.copy.InServiceTransfer;
import io.ferry.copy.RangeCopier;
import io.ferry.copy.RangeTransfer;
import io.ferry.copy.StreamCopy;
import io.ferry.copy.StreamGate;
import io.ferry.copy.StreamTuning;
import io.ferry.manifest.ManifestFiles;
import io.ferry.store.ByteRange;
import io.ferry.store.Destination;
import io.ferry.store.MessageQueue;
import io.ferry.store.Store;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.file.FileStore;
import io.ferry.store.retry.Backoff;
import io.ferry.store.retry.Retrier;
import io.ferry.store.s3.S3Store;
import io.ferry.store.s3.SqsQueue;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkEnv;

/** Builds the stores and the copier from {@link CopySettings}, where they are used; clients come from per-JVM caches. */
public final class ExecutorContext {
  private ExecutorContext() {}

  /** The one place that knows the store kinds. */
  public static Store store(StoreConfig config, CopySettings s) {
    if (config instanceof BucketConfig bucket) return new S3Store(bucket, connections(s), s.copy().stallTimeout(), retrier(s));
    if (config instanceof DirectoryConfig directory) return new FileStore(directory, s.job(), s.copy().bufferSize());
    throw new IllegalArgumentException("no store for " + config.getClass().getSimpleName());
  }

  /** The queue a delta pass reads its events from, reached as the source's endpoint is. */
  public static MessageQueue queue(ChangesConfig.Queue changes, SourceConfig source) {
    return SqsQueue.of(changes.url(), ((BucketConfig) source.store()).endpoint());
  }

  public static Store source(CopySettings s) {
    return store(s.source().store(), s);
  }

  public static Destination destination(CopySettings s) {
    return store(s.destination().store(), s).destination();
  }

  /**
   * The connection pool of the one client an executor JVM shares between its concurrent tasks: every task slot runs
   * streams-per-task streams, so a pool of only streams-per-task connections would make the tasks queue for it.
   */
  public static int connections(CopySettings s) {
    return s.copy().threadsPerTask() * slots();
  }

  private static final Pattern LOCAL = Pattern.compile("local\\[(\\d+)(,\\d+)?]");

  /** This JVM's task slots: spark.executor.cores, else local[N]'s N, else its processors. */
  public static int slots() {
    SparkEnv env = SparkEnv.get();
    int processors = Runtime.getRuntime().availableProcessors();
    if (env == null) return processors;
    if (env.conf().contains("spark.executor.cores")) return Math.max(1, env.conf().getInt("spark.executor.cores", processors));
    Matcher local = LOCAL.matcher(env.conf().get("spark.master", ""));
    return local.matches() ? Math.max(1, Integer.parseInt(local.group(1))) : processors;
  }

  /** A tuned gate's window: several of a long link's round trips, and short enough to follow a copy of seconds. */
  public static final long TUNING_WINDOW_NANOS = 2_000_000_000L;

  /** The gates of the runs this JVM copies for, newest last: two jobs on one Spark context each tune their own. */
  private static final LinkedHashMap<String, StreamGate> GATES = new LinkedHashMap<>();

  /**
   * The streams this JVM's copy tasks share for a run: tuned from the aggregate rate under
   * {@code streams-per-task = auto}, else the tasks' fixed count (a gate that holds nothing back).
   */
  public static synchronized StreamGate gate(CopySettings s) {
    StreamGate gate = GATES.get(s.runId());
    if (gate != null) return gate;
    while (GATES.size() >= 8) GATES.remove(GATES.keySet().iterator().next()); // runs long finished
    int slots = slots();
    gate = s.copy().autoStreams()
        ? StreamGate.tuned(new StreamTuning(CopyConfig.AUTO_MIN * slots, s.copy().maxStreamsPerTask() * slots, 0.10, 3),
            s.copy().streamsPerTask() * slots, TUNING_WINDOW_NANOS)
        : StreamGate.fixed(s.copy().streamsPerTask() * slots);
    GATES.put(s.runId(), gate);
    return gate;
  }

  /** A manifest's files: in a bucket of the source's service (read with its credentials), or local. */
  public static ManifestFiles manifestFiles(CopySettings s) {
    return new ManifestFiles() {
      @Override
      public InputStream open(String location, long offset) throws IOException {
        if (!location.startsWith("s3://")) {
          InputStream in = Files.newInputStream(Path.of(location));
          in.skipNBytes(offset);
          return in;
        }
        Store store = bucket(location);
        StoreObject o = stat(store, location);
        return store.reader().open(o, new ByteRange(offset, o.size() - offset));
      }

      @Override
      public long size(String location) throws IOException {
        return location.startsWith("s3://") ? stat(bucket(location), location).size() : Files.size(Path.of(location));
      }

      private Store bucket(String location) {
        String bucket = location.substring("s3://".length(), location.indexOf('/', "s3://".length()));
        return store(new BucketConfig(((BucketConfig) s.source().store()).endpoint(), bucket, "", ObjectWrites.NONE), s);
      }

      private StoreObject stat(Store store, String location) throws IOException {
        String key = location.substring(location.indexOf('/', "s3://".length()) + 1);
        StoreObject o = store.lister().stat(key);
        if (o == null) throw new NoSuchFileException(location);
        return o;
      }
    };
  }

  public static RangeCopier copier(CopySettings s) {
    Destination destination = destination(s);
    RangeTransfer transfer = CopyMethod.choose(s.source(), s.destination()) == CopyMethod.SERVER_SIDE_COPY
        ? new InServiceTransfer(store(s.destination().store(), s).copyingFrom(s.source().store()).orElseThrow(), destination)
        : new StreamCopy(source(s).reader(), destination);
    InOrderDigests.Reader staged = new InOrderDigests.Reader() {
      @Override
      public boolean read(Upload upload, ByteRange range, Checksum.Digest... digests) throws IOException {
        return destination.readBack(upload, range, digests);
      }

      @Override
      public String staged(Upload upload) throws IOException {
        return destination.staged(upload);
      }
    };
    boolean readable = destination.capabilities().resumableWrites(); // a file: its staged bytes read back cheaply
    return new RangeCopier(transfer, retrier(s), executorId(), host(), readable ? IN_ORDER : null, staged);
  }

  /**
   * The executor's in-order digests, shared by its tasks: an object's parts copied by two tasks here meet in it. At
   * most 4,096 objects and 100,000 parts waiting for the prefix (about 10 MB).
   */
  private static final InOrderDigests IN_ORDER = new InOrderDigests(4096, 100_000);

  /** The job's one retry policy. */
  public static Retrier retrier(CopySettings s) {
    return new Retrier(s.copy().retries(), new Backoff(s.copy().backoff(), s.copy().maxBackoff()));
  }

  public static String executorId() {
    SparkEnv env = SparkEnv.get();
    return env == null ? "unknown" : env.executorId();
  }

  public static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown";
    }
  }
}
