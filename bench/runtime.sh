#!/usr/bin/env bash
# Java 17 (with the class-data archive, as jobs/ run Ferry) against Temurin's Java 25, without and with its
# ahead-of-time cache (JEP 483/514/515: `-XX:AOTCacheOutput` records it in one training run): one S3Proxy (Java 17)
# seeded once, then the same bucket -> directory job in local mode, the runtimes alternating; wall and client CPU by
# /usr/bin/time, every copy's size summed and compared. Results: bench/results/runtime.csv.
#   bench/runtime.sh
#   FERRY_RUNTIME_OBJECTS=2000 FERRY_RUNTIME_REPEAT=3 FERRY_JDK25=/usr/lib/jvm/temurin-25-jdk-amd64 bench/runtime.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
ferry_build
cd "$FERRY_HOME"
jdk25=${FERRY_JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
objects=${FERRY_RUNTIME_OBJECTS:-2000} repeat=${FERRY_RUNTIME_REPEAT:-3}
dir="$FERRY_HOME/target/bench-runtime" csv="$FERRY_HOME/bench/results/runtime.csv"
rm -rf "$dir"; mkdir -p "$dir/data" "$dir/aot"
[ -f "$csv" ] || echo "when,runtime,objects,wall_s,cpu_s,copied_bytes,expected_bytes" > "$csv"
port=$(ferry_free_port)
printf '%s\n' "s3proxy.endpoint=http://127.0.0.1:$port" s3proxy.authorization=aws-v2-or-v4 s3proxy.identity=rt \
  s3proxy.credential=rt-secret jclouds.provider=filesystem-nio2 "jclouds.filesystem.basedir=$dir/data" > "$dir/s3proxy.properties"
java -Xmx512m -DLOG_LEVEL=warn -jar "$FERRY_HOME/target/s3proxy/s3proxy.jar" --properties "$dir/s3proxy.properties" > "$dir/s3proxy.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
(ferry_lab_java io.ferry.support.SeedData "http://127.0.0.1:$port" rt rt-secret rtsrc $((objects * 65536)) "$objects")
expected=$(find "$dir/data/rtsrc" -type f -printf '%s\n' | awk '{s += $1} END {print s}')
cat > "$dir/job.conf" <<CONF
ferry {
  job.name = runtime
  source { endpoint = "http://127.0.0.1:$port", bucket = rtsrc, credentials { access-key-id = rt, secret-access-key = rt-secret } }
  destination.path = "$dir/out"
  copy.skip-unchanged = false
  report.path = "$dir/reports"
}
CONF
run() { # runtime label, java home, extra JVM options, class-data archive on (1) or off (0)
  rm -rf "$dir/out" "$dir/reports"
  local t
  t=$( { PATH="$2/bin:$PATH" FERRY_CDS=$4 FERRY_JIT=late-c2 FERRY_GC=parallel FERRY_DRIVER_OPTS="-Xmx4g $3" \
    /usr/bin/time -f '%e %U %S' bash -c 'source jobs/env.sh; ferry_java io.ferry.Ferry migrate "$0" > /dev/null 2>&1' "$dir/job.conf"; } 2>&1 | tail -1)
  local copied
  copied=$(find "$dir/out" -type f -printf '%s\n' | awk '{s += $1} END {print s}')
  echo "$(date -u +%FT%TZ),$1,$objects,$(echo "$t" | awk '{print $1}'),$(echo "$t" | awk '{printf "%.2f", $2 + $3}'),$copied,$expected" | tee -a "$csv"
}
java17=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
run java25-training "$jdk25" "-XX:AOTCacheOutput=$dir/aot/ferry.aot" 0 # records the cache: not a measurement
for _ in $(seq 1 "$repeat"); do
  run java17-cds "$java17" "" 1
  run java25 "$jdk25" "" 0
  run java25-aot "$jdk25" "-XX:AOTCache=$dir/aot/ferry.aot" 0
done
