#!/usr/bin/env bash
# The driver's memory for LIST + PLAN per object (io.ferry.bench.PlanMemory): a million synthetic objects in a 2 GiB heap.
#   bench/plan-memory.sh [objects]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
ferry_build
FERRY_DRIVER_OPTS="-Xmx2g -XX:+UseG1GC" ferry_lab_java io.ferry.bench.PlanMemory "${1:-1000000}"
