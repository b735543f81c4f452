package io.ferry.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.LocalJobRunner;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider;

/**
 * For the benchmark's tuned DistCp only: Hadoop's own local provider forces {@code mapreduce.job.maps = 1}, so
 * {@code distcp -m 16} under the local job runner silently runs one map. This provider answers to
 * {@code mapreduce.framework.name = ferry-bench-local} with the same {@link LocalJobRunner} minus that override, which
 * then runs {@code mapreduce.local.map.tasks.maximum} maps in parallel threads. The benchmark registers it through a
 * service file on DistCp's classpath only; Ferry never loads it.
 */
public final class ParallelLocalProvider extends ClientProtocolProvider {
  public static final String FRAMEWORK = "ferry-bench-local";

  @Override
  public ClientProtocol create(Configuration conf) throws IOException {
    return FRAMEWORK.equals(conf.get("mapreduce.framework.name")) ? new LocalJobRunner(conf) : null;
  }

  @Override
  public ClientProtocol create(InetSocketAddress address, Configuration conf) {
    return null;
  }

  @Override
  public void close(ClientProtocol client) {}
}
