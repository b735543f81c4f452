#!/usr/bin/env bash
# The embedded default: starts an S3 server (S3Proxy, child JVM), seeds it (a 320 MiB object, an empty one, 300 small
# ones, keys with spaces and non-ASCII), migrates the bucket to target/demo/migrated on local Spark, then into bucket
# ferry-demo-copy on the same server (server-side copies), checks every copy by SHA-256 and prints each run's summary
# and where its report is.
# Smaller: FERRY_DEMO_OPTS="-Dferry.demo.large-bytes=67108864 -Dferry.demo.small-objects=50" jobs/demo.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export FERRY_CDS="${FERRY_CDS:-1}" FERRY_JIT="${FERRY_JIT:-late-c2}" FERRY_GC="${FERRY_GC:-parallel}" # class-data archive, late C2, Parallel GC: see ferry_java in env.sh
ferry_build
FERRY_DRIVER_OPTS="-Xmx4g ${FERRY_DEMO_OPTS:-}" ferry_lab_java io.ferry.demo.Demo "$FERRY_HOME/target/demo"
