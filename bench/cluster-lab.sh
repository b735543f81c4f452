#!/usr/bin/env bash
# Sourced by the benches whose lab class starts a standalone Spark cluster of its own (io.ferry.support.StandaloneCluster):
# builds Ferry and the Spark home the cluster runs from, writes the tests' classpath and prints the machine;
# cluster_lab_java HEAP CLASS then runs the class with the repository as its first argument.
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
ferry_build
cd "$FERRY_HOME"
export SPARK_LOCAL_IP=127.0.0.1 # Spark binds to loopback only
[ -d target/spark-home/jars ] || mvn -B -q -DskipTests verify # the Spark home the cluster runs from
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"

cluster_lab_java() {
  local heap=$1 main=$2
  # shellcheck disable=SC2086
  exec java "-Xmx$heap" -Dferry.spark.home=target/spark-home "-Dferry.spark.jvm.opens=$SPARK_JAVA_OPENS" $SPARK_JAVA_OPENS \
    -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" "$main" "$FERRY_HOME"
}
