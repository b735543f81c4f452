#!/usr/bin/env bash
# Listing speed of a bucket of real objects (S3Proxy behind the WAN emulator, 10 ms each way): one ListObjectsV2
# stream against the key space split into shards listed in parallel (io.ferry.bench.ListingBench, 'ferry plan' on
# Spark local[2]). The bucket is seeded once under target/bench-listing. Results: bench/results/listing.csv.
#   bench/listing.sh
#   FERRY_LISTING_OBJECTS=20000 FERRY_LISTING_SHARDS=1,16 bench/listing.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
ferry_build
cd "$FERRY_HOME"
export SPARK_LOCAL_IP=127.0.0.1 # Spark binds to loopback only
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
exec java -Xmx2g -Dferry.s3proxy.heap=2g $SPARK_JAVA_OPENS -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" io.ferry.bench.ListingBench "$FERRY_HOME"
