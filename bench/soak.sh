#!/usr/bin/env bash
# The randomized invariant suite (io.ferry.invariants.InvariantsIT) on fresh seeds for as long as asked, or one
# seed replayed. Every scenario, its runs and what they found go to the console; each session appends its summary line
# (scenarios, runs, failed seeds) to bench/results/soak.txt.
#
#   bench/soak.sh                    # fresh seeds for 30 minutes
#   bench/soak.sh --minutes 120      # fresh seeds for two hours
#   bench/soak.sh --seed 4181        # replay one seed (a failure prints its own)
#   bench/soak.sh --seeds 1,2,3      # these seeds
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
minutes=30 seeds=""
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes=$2; shift 2 ;;
    --seed|--seeds) seeds=$2; shift 2 ;;
    *) echo "usage: bench/soak.sh [--minutes N | --seed S | --seeds S1,S2]" >&2; exit 2 ;;
  esac
done
select=(-Dferry.invariants.minutes="$minutes")
[ -n "$seeds" ] && select=(-Dferry.invariants.seeds="$seeds")
# the suite alone: no unit tests, no other integration test (the jar and S3Proxy's are built by the package phase)
mvn -B verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=InvariantsIT "${select[@]}" \
  -Dferry.invariants.record="$PWD/bench/results/soak.txt" -Dfailsafe.timeout=0 | grep -E 'InvariantsIT|Tests run|violat|seed|I[1-6]:|BUILD' || true
tail -n 1 bench/results/soak.txt
