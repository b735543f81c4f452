#!/usr/bin/env bash
# How close a job capped by limits.bandwidth stays to its cap, on Spark local mode and on a standalone cluster of
# two one-core workers (io.ferry.bench.LimitsBench; S3Proxy -> a directory, every copy checked by SHA-256).
# Results: bench/results/limits.csv.
#   bench/limits.sh
#   FERRY_LIMITS_CAP_MIB=48 FERRY_LIMITS_REPEAT=1 bench/limits.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
ferry_build
cd "$FERRY_HOME"
export SPARK_LOCAL_IP=127.0.0.1 # Spark binds to loopback only
[ -d target/spark-home/jars ] || mvn -B -q -DskipTests verify # the Spark home the cluster runs from
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
exec java -Xmx2g -Dferry.spark.home=target/spark-home "-Dferry.spark.jvm.opens=$SPARK_JAVA_OPENS" $SPARK_JAVA_OPENS \
  -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" io.ferry.bench.LimitsBench "$FERRY_HOME"
