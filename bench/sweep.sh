#!/usr/bin/env bash
# The sweep behind Ferry's defaults for plan.part-size and copy.streams-per-task: every pair, on one workload, task
# and mode (default: large, bucket -> files, WAN), with the raw reader as the limit. Results go to
# bench/results/sweep.csv and sweep.md (the same columns as bench/run.sh; "inner MB/s" is the copy stage alone).
#   bench/sweep.sh
#   FERRY_SWEEP_PARTS="8MiB 64MiB" FERRY_SWEEP_STREAMS="4 8" FERRY_BENCH_MODES=direct bench/sweep.sh
# "auto" among the streams is copy.streams-per-task = auto (issue 26: within 10% of the best fixed count on every row).
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
tools=raw
for part in ${FERRY_SWEEP_PARTS:-16MiB 32MiB 64MiB 128MiB}; do
  for streams in ${FERRY_SWEEP_STREAMS:-2 4 8 16 auto}; do
    tools+=",ferry@plan.part-size=$part@copy.streams-per-task=$streams"
  done
done
export FERRY_BENCH_TOOLS="$tools"
export FERRY_BENCH_RESULTS="${FERRY_BENCH_RESULTS:-$here/results/sweep.csv}"
export FERRY_BENCH_WORKLOADS="${FERRY_BENCH_WORKLOADS:-large}" FERRY_BENCH_TASKS="${FERRY_BENCH_TASKS:-files}"
export FERRY_BENCH_MODES="${FERRY_BENCH_MODES:-wan}"
exec bash "$here/run.sh"
