#!/usr/bin/env bash
# Driver heap and wall time to list and plan 1 and 10 million objects: 'ferry plan' on a standalone cluster (two
# one-core workers), its source an S3 Inventory report of synthetic objects (io.ferry.bench.PlanScaleBench). The
# reports are written once under target/bench-scale. Results: bench/results/plan-scale.csv.
#   bench/plan-scale.sh
#   FERRY_SCALE_OBJECTS=1000000 FERRY_SCALE_DRIVER_HEAP=512m bench/plan-scale.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
ferry_build
cd "$FERRY_HOME"
export SPARK_LOCAL_IP=127.0.0.1 # Spark binds to loopback only
[ -d target/spark-home/jars ] || mvn -B -q -DskipTests verify # the Spark home the cluster runs from
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
exec java -Xmx1g -Dferry.spark.home=target/spark-home "-Dferry.spark.jvm.opens=$SPARK_JAVA_OPENS" \
  -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" io.ferry.bench.PlanScaleBench "$FERRY_HOME"
