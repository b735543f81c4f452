#!/usr/bin/env bash
# What a proof costs (issue 48): verify --manifest between two buckets whose stores keep each object's full-object
# CRC32C (a HEAD a side), and between two that keep none (both sides read in ranges), against plain verify
# (io.ferry.bench.ManifestBench, S3Proxy on loopback, Spark local[2] in this JVM). Results: bench/results/manifest.csv.
#   bench/manifest.sh
#   FERRY_MANIFEST_OBJECTS=32 FERRY_MANIFEST_MIB=16 bench/manifest.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
ferry_build
cd "$FERRY_HOME"
export SPARK_LOCAL_IP=127.0.0.1 # Spark binds to loopback only
mvn -B -q -DskipTests pre-integration-test # S3Proxy's jar into target/s3proxy
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
exec java -Xmx4g -Dferry.s3proxy.heap=2g $SPARK_JAVA_OPENS -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  io.ferry.bench.ManifestBench "$FERRY_HOME"
