#!/usr/bin/env bash
# A delta pass from events against a full pass (issue 48): a bucket of 1,000,000 objects on S3Proxy already copied
# into a directory, 1,000 keys changed with their events in ElasticMQ, then 1,000 others without (io.ferry.bench.DeltaBench,
# Spark local[2] in this JVM). The bucket and its copy are made once under target/bench-delta. Results: bench/results/delta.csv.
#   bench/delta.sh
#   FERRY_DELTA_OBJECTS=20000 FERRY_DELTA_CHANGES=100 bench/delta.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
ferry_build
cd "$FERRY_HOME"
export SPARK_LOCAL_IP=127.0.0.1 # Spark binds to loopback only
mvn -B -q -DskipTests pre-integration-test # ElasticMQ's jars into target/elasticmq
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
exec java -Xmx6g -Dferry.s3proxy.heap=3g $SPARK_JAVA_OPENS -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  io.ferry.bench.DeltaBench "$FERRY_HOME"
