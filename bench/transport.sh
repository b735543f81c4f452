#!/usr/bin/env bash
# Ferry's own transport for bulk requests against the AWS SDK's S3 client on its Apache 4, Apache 5 and CRT HTTP
# clients, signed and unsigned: client CPU-seconds per GB and MB/s against one S3Proxy on loopback
# (io.ferry.bench.TransportBench). Results: bench/results/transport.csv and transport.md.
#   bench/transport.sh
#   FERRY_TRANSPORT_REPEAT=1 FERRY_TRANSPORT_WORKLOADS=get-large FERRY_TRANSPORT_VARIANTS=ferry,sdk-crt bench/transport.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
ferry_build
cd "$FERRY_HOME"
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
exec java -Xmx2g -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" io.ferry.bench.TransportBench "$FERRY_HOME"
