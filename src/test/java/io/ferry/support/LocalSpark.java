package io.ferry.support;

import org.apache.spark.sql.SparkSession;

/** One local[2] Spark session for a test class: loopback only, no UI, few shuffle partitions. */
public final class LocalSpark {
  private LocalSpark() {}

  public static SparkSession start(String name) {
    return SparkSession.builder()
        .appName(name)
        .master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.default.parallelism", "2")
        .config("spark.executor.heartbeatInterval", "1s")
        .config("spark.plugins", "io.ferry.spark.FerryPlugin")
        .config("spark.metrics.namespace", "ferry")
        .getOrCreate();
  }
}
