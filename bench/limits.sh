#!/usr/bin/env bash
# How close a job capped by limits.bandwidth stays to its cap, on Spark local mode and on a standalone cluster of
# two one-core workers (io.ferry.bench.LimitsBench; S3Proxy -> a directory, every copy checked by SHA-256).
# Results: bench/results/limits.csv.
#   bench/limits.sh
#   FERRY_LIMITS_CAP_MIB=48 FERRY_LIMITS_REPEAT=1 bench/limits.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/cluster-lab.sh"
cluster_lab_java 2g io.ferry.bench.LimitsBench
