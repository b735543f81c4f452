package io.ferry.spark.run;

import io.ferry.config.MigrationConfig;
import io.ferry.copy.CopyMethod;
import io.ferry.ledger.Ledger;
import io.ferry.ledger.Resumption;
import io.ferry.ledger.RunLock;
import io.ferry.report.StageTimes;
import io.ferry.spark.CopySettings;
import io.ferry.spark.ExecutorContext;
import io.ferry.spark.Held;
import io.ferry.spark.JobFailure;
import io.ferry.store.Destination;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * What every stage of one run shares, made once: the job, the Spark context, the ledger as earlier runs left it, the
 * run's lock, what it holds on the cluster until its end, its stage times and the console.
 *
 * @param earlier the ledger as the run found it
 * @param lock the job's run lock; a dry run takes none ({@link Lock#NONE})
 * @param held broadcasts and persisted datasets, released when the context closes
 * @param resumption what earlier runs left open here, which OPEN takes over
 */
record RunContext(MigrationConfig config, CopySettings settings, CopyMethod method, JavaSparkContext jsc, Ledger ledger,
    Ledger.State earlier, Lock lock, Held held, Broadcast<SerializableConfiguration> hadoop, Broadcast<Resumption> resumption,
    StageTimes stages, Instant started, PrintStream out) implements AutoCloseable {

  /** The job's run lock as a stage sees it: whether this run still holds it. */
  @FunctionalInterface
  interface Lock {
    Lock NONE = () -> true;

    boolean held();

    static Lock of(RunLock lock) {
      return lock::held;
    }
  }

  /** The job's ledger, where the report path keeps it. */
  static Ledger ledger(MigrationConfig config, Configuration hadoop) throws IOException {
    return new Ledger(Ledger.directory(config.reportPath(), config.jobName(), hadoop), hadoop);
  }

  /** A run's context: the ledger read, the Hadoop configuration broadcast; {@code stages} times it from its start. */
  static RunContext of(MigrationConfig config, CopySettings settings, JavaSparkContext jsc, Lock lock, StageTimes stages, Instant started,
      PrintStream out) throws IOException {
    Ledger ledger = ledger(config, jsc.hadoopConfiguration());
    Held held = new Held();
    Ledger.State earlier = ledger.read();
    return new RunContext(config, settings, CopyMethod.choose(config.source(), config.destination()), jsc, ledger, earlier, lock, held,
        held.broadcast(SerializableConfiguration.broadcast(jsc.sc())),
        held.broadcast(jsc.broadcast(Resumption.of(earlier, ExecutorContext.destination(settings)))), stages, started, out);
  }

  boolean serverSide() {
    return method == CopyMethod.SERVER_SIDE_COPY;
  }

  /** The ledger's directory, as the executors name it. */
  String ledgerDirectory() {
    return ledger.directory();
  }

  /** The destination, as this JVM's executors reach it. */
  Destination destination() {
    return ExecutorContext.destination(settings);
  }

  /** Before anything that destroys: the run must still hold its lock (another run took it for a crashed one). */
  void stillHeld(String before) throws JobFailure {
    if (!lock.held()) {
      throw new JobFailure("another run of job " + config.jobName() + " took this run's lock (this run's note was not renewed in"
          + " time): this run stops before " + before);
    }
  }

  @Override
  public void close() {
    held.close();
  }
}
