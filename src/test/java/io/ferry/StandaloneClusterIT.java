package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.demo.SeedData;
import io.ferry.support.Jobs;
import io.ferry.support.LocalSpark;
import io.ferry.support.S3Backend;
import io.ferry.support.StandaloneCluster;
import io.ferry.support.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end as users deploy it: the shaded jar submitted with the real {@code SparkSubmit} to a real standalone
 * master with two workers (separate JVMs) on loopback. Proves the ranges run in executors, spread over both, and the
 * copy is byte-identical.
 */
class StandaloneClusterIT {
  private static final long MIB = 1L << 20;
  @TempDir static Path work;

  @Test
  void rangesOfOneObjectAreCopiedByBothExecutorsOfAStandaloneCluster() throws Exception {
    Path appJar = Path.of(System.getProperty("ferry.app.jar", "target/ferry.jar")).toAbsolutePath();
    assertThat(appJar).exists();
    try (S3Backend s3 = S3Backend.start(work);
        StandaloneCluster cluster = StandaloneCluster.start(Path.of("target/cluster-it").toAbsolutePath(), 2, "1g")) {
      List<SeedData.Spec> specs = new ArrayList<>(SeedData.mix(64 * MIB + 5, 40));
      Map<String, String> source = SeedData.upload(s3.client(), "cluster-source", specs);
      Path destination = work.resolve("out");
      Path reports = work.resolve("reports");
      String hocon = Jobs.hocon(s3.endpoint(), s3.identity(), "cluster-source", destination, reports, """
          ferry.source.credentials.secret-access-key = ${?SRC_SECRET_ACCESS_KEY}
          ferry.copy.streams-per-task = 2
          """);
      Path conf = Jobs.file(work, "cluster.conf", hocon);

      int code = cluster.submit(List.of(
              "--class", "io.ferry.Ferry",
              "--conf", "spark.cores.max=2",
              "--conf", "spark.executor.memory=512m",
              "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
              "--conf", "spark.scheduler.maxRegisteredResourcesWaitingTime=120s",
              "--conf", "spark.driver.host=127.0.0.1",
              "--conf", "spark.ui.enabled=false",
              appJar.toString(), "migrate", conf.toString()),
          Map.of("SRC_SECRET_ACCESS_KEY", s3.secret()), 300);
      String log = cluster.log("submit");
      assertThat(code).as(log).isZero();
      assertThat(log).contains("objects      " + source.size() + " copied").doesNotContain(s3.secret());

      assertThat(Trees.digests(destination)).isEqualTo(new TreeMap<>(source));
      assertThat(Trees.tempFiles(destination)).isEmpty();

      Path run;
      try (var runs = Files.list(reports.resolve("test"))) {
        run = runs.findFirst().orElseThrow();
      }
      SparkSession spark = LocalSpark.start("StandaloneClusterIT-read");
      try {
        Dataset<Row> ranges = spark.read().parquet(run.resolve("ranges.parquet").toString());
        List<String> executors = ranges.select("executor").distinct().collectAsList().stream().map(r -> r.getString(0)).sorted().toList();
        assertThat(executors).as("ranges ran in the two executors, not the driver").containsExactly("0", "1");
        Map<String, Long> bigByExecutor = ranges.filter("key = 'video/raw footage 2018.bin'").groupBy("executor").count()
            .collectAsList().stream().collect(Collectors.toMap(r -> r.getString(0), r -> r.getLong(1)));
        assertThat(bigByExecutor.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(9);
        assertThat(bigByExecutor).as("the parts of one object were copied by both executors").hasSize(2);
      } finally {
        spark.stop();
      }
    }
  }
}
