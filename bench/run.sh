#!/usr/bin/env bash
# Ferry's benchmark against rclone, AWS CLI v2, s3cmd and Hadoop DistCp, with a raw parallel ranged-GET reader as the limit.
# Two S3Proxy endpoints on loopback (source A, destination B), optionally behind a userspace WAN emulator
# (per-connection bandwidth cap and one-way delay). Every copy is verified by SHA-256. Results are appended to
# bench/results/results.csv and rendered to bench/results/results.md.
#
#   bench/run.sh                                   # everything (long: workloads x tasks x modes x tools)
#   FERRY_BENCH_WORKLOADS=large FERRY_BENCH_MODES=wan FERRY_BENCH_TASKS=files bench/run.sh
#   FERRY_BENCH_SCALE=0.1 bench/run.sh             # a tenth of the sizes, for a quick look
# See io.ferry.bench.Bench for every variable.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
for tool in rclone s3cmd; do
  command -v "$tool" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq rclone awscli s3cmd; break; }
done
[ -x /usr/bin/aws ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq awscli
if [ ! -f "$FERRY_HOME/target/distcp/netty-nio-client.jar" ]; then # a peer, not a dependency of Ferry
  hadoop_version=$(sed -n 's:.*<hadoop.version>\(.*\)</hadoop.version>.*:\1:p' "$FERRY_HOME/pom.xml")
  sdk_version=$(sed -n 's:.*<awssdk.version>\(.*\)</awssdk.version>.*:\1:p' "$FERRY_HOME/pom.xml")
  # DistCp needs unshaded commons-cli; S3A's rename (a copy) needs the SDK's Netty client
  for artifact in "org.apache.hadoop:hadoop-distcp:$hadoop_version" commons-cli:commons-cli:1.9.0 \
      "software.amazon.awssdk:netty-nio-client:$sdk_version"; do
    (cd "$FERRY_HOME" && mvn -B -q dependency:copy -Dartifact="$artifact" -Dmdep.stripVersion=true -DoutputDirectory=target/distcp)
  done
fi
FERRY_CDS=1 ferry_build # the class-data archive, recorded here so that no timed run records it
export FERRY_BUILT=1 # and no timed run rebuilds, whatever is edited while the bench runs
source "$(dirname "${BASH_SOURCE[0]}")/fresh-ext4.sh"
fresh_ext4 "$FERRY_HOME/target/bench" # as a mounted volume is, with a journal (fresh-ext4.sh)
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
(ferry_lab_java io.ferry.bench.Bench "$FERRY_HOME") # a subshell: ferry_java execs, and the trap fresh_ext4 set must run after
