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
# The runs write onto a fresh ext4 with a journal, as a mounted volume is: this VM's root filesystem has none, and
# without a journal ext4 skips every inode freed in the last 60-360 s when it creates a file (recently_deleted), so
# 20,000 creates right after the last run's 20,000 deletes cost 4.5 kernel CPU-s instead of 0.5 (bench/results).
# FERRY_BENCH_FS=host writes into target/bench wherever it is.
if [ "${FERRY_BENCH_FS:-ext4}" = ext4 ]; then
  work="$FERRY_HOME/target/bench" image="$FERRY_HOME/target/bench.img"
  mkdir -p "$work"
  if mountpoint -q "$work"; then umount -l "$work"; fi # left by a run that was killed
  for stale in $(losetup -n -O NAME -j "$image" 2>/dev/null); do losetup -d "$stale"; done
  loop=""
  if fallocate -l "${FERRY_BENCH_FS_GIB:-24}G" "$image" && loop=$(losetup -f --show --direct-io=on "$image" 2>/dev/null) \
      && mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$loop" && mount "$loop" "$work"; then
    # lazily: the S3 servers may still be exiting; the loop device goes when the filesystem is let go
    trap 'umount -l "$work"; losetup -d "$loop" 2>/dev/null; rm -f "$image"' EXIT
    export FERRY_BENCH_FS_LABEL="fresh ext4 with a journal"
  else
    [ -n "$loop" ] && losetup -d "$loop"
    rm -f "$image"
    echo "WARNING: cannot mount a fresh ext4 (needs root and a loop device): the runs write into $work as it is" >&2
    export FERRY_BENCH_FS_LABEL="host filesystem"
  fi
else
  export FERRY_BENCH_FS_LABEL="host filesystem"
fi
echo "filesystem of the runs: $FERRY_BENCH_FS_LABEL"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
(ferry_lab_java io.ferry.bench.Bench "$FERRY_HOME") # a subshell: ferry_java execs, and the trap above must run after
