#!/usr/bin/env bash
# A job-wide request rate per key prefix against each executor halving its own requests (issue 47): a standalone
# cluster of four one-core workers copies a bucket into a directory through the fault proxy, which answers 503 SlowDown
# to one prefix above a rate (io.ferry.bench.PrefixRatesBench; every copy checked by SHA-256).
# Results: bench/results/prefix-rates.csv.
#   bench/prefix-rates.sh
#   FERRY_PREFIX_RATE=50 FERRY_PREFIX_REPEAT=1 bench/prefix-rates.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
ferry_build
cd "$FERRY_HOME"
export SPARK_LOCAL_IP=127.0.0.1 # Spark binds to loopback only
[ -d target/spark-home/jars ] || mvn -B -q -DskipTests verify # the Spark home the cluster runs from
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
exec java -Xmx2g -Dferry.spark.home=target/spark-home "-Dferry.spark.jvm.opens=$SPARK_JAVA_OPENS" $SPARK_JAVA_OPENS \
  -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" io.ferry.bench.PrefixRatesBench "$FERRY_HOME"
