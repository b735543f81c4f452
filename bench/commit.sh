#!/usr/bin/env bash
# What a durable commit costs per file on this disk (issue 25, item 3): each file fsynced before its rename (Ferry's
# commit), each fdatasynced, one `sync -f` of the filesystem per batch of 100 files, and no fsync at all (the floor),
# onto a fresh journaled ext4 (bench/fresh-ext4.sh). Usage: [FERRY_COMMIT_MODES="fsync none"] bench/commit.sh [FILES]
# [SIZE] [THREADS] [ROUNDS]; appends to bench/results/commit.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-10000}; size=${2:-65536}; threads=${3:-16}; rounds=${4:-3}
out=bench/results/commit.csv
[ -f "$out" ] || echo "when,mode,files,size,threads,wall_s,us_per_file,cpu_s,filesystem" > "$out"
source bench/fresh-ext4.sh
work=target/bench-commit
fresh_ext4 "$work"
for round in $(seq "$rounds"); do
  for mode in ${FERRY_COMMIT_MODES:-fsync fdatasync syncfs none}; do
    rm -rf "$work/d"; sync
    sleep "${FERRY_BENCH_SETTLE_S:-10}" # as bench/run.sh: memory just freed is the host's again, and dearer to write into
    line=$(java bench/commit/CommitCost.java "$work/d" "$mode" "$files" "$size" "$threads")
    echo "$(date -u +%FT%TZ),$line,$FERRY_BENCH_FS_LABEL" | tee -a "$out"
  done
done
