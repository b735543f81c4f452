#!/usr/bin/env bash
# Driver heap and wall time to list and plan 1 and 10 million objects: 'ferry plan' on a standalone cluster (two
# one-core workers), its source an S3 Inventory report of synthetic objects (io.ferry.bench.PlanScaleBench). The
# reports are written once under target/bench-scale. Results: bench/results/plan-scale.csv.
#   bench/plan-scale.sh
#   FERRY_SCALE_OBJECTS=1000000 FERRY_SCALE_DRIVER_HEAP=512m bench/plan-scale.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/cluster-lab.sh"
cluster_lab_java 1g io.ferry.bench.PlanScaleBench
