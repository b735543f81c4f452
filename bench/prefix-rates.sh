#!/usr/bin/env bash
# A job-wide request rate per key prefix against each executor halving its own requests (issue 47): a standalone
# cluster of four one-core workers copies a bucket into a directory through the fault proxy, which answers 503 SlowDown
# to one prefix above a rate (io.ferry.bench.PrefixRatesBench; every copy checked by SHA-256).
# Results: bench/results/prefix-rates.csv.
#   bench/prefix-rates.sh
#   FERRY_PREFIX_RATE=50 FERRY_PREFIX_REPEAT=1 bench/prefix-rates.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/cluster-lab.sh"
cluster_lab_java 2g io.ferry.bench.PrefixRatesBench
