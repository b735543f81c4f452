#!/usr/bin/env bash
# Runs a Ferry command: jobs/migrate.sh [migrate|plan|verify|cleanup] <job.conf> [-Dferry.key=value ...] [--dry-run] [--manifest]
#                  or: jobs/migrate.sh report <run-folder>... [--out compare.html]
# With SPARK_HOME set, submits to the cluster named by SPARK_MASTER (default: local[*]) with spark-submit;
# otherwise runs in local mode on the Maven-built classpath.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
command=migrate
case "${1:-}" in migrate|plan|verify|cleanup|report) command="$1"; shift ;; esac
[ $# -ge 1 ] || { echo "usage: jobs/migrate.sh [migrate|plan|verify|cleanup] <job.conf> [-Dferry.key=value ...] [--dry-run] [--manifest]" >&2; exit 2; }
# local mode only: the class-data archive, the JIT compilers the job wants and the Parallel collector (see ferry_java in
# env.sh); spark-submit runs its own JVMs
if [ -z "${SPARK_HOME:-}" ]; then
  export FERRY_CDS="${FERRY_CDS:-1}" FERRY_GC="${FERRY_GC:-parallel}"
fi
ferry_build
if [ -z "${SPARK_HOME:-}" ] && [ -z "${FERRY_JIT:-}" ]; then
  FERRY_JIT=late-c2
  if [[ "$command" =~ ^(migrate|plan|verify)$ ]]; then # the job read in a small JVM first (~0.4 s; io.ferry.LocalJvm)
    # with the job's own -D properties (ferry.digests, java.io.tmpdir): which digests load decides the answer too
    jit_opts=-Xmx256m
    read -ra driver_opts <<< "${FERRY_DRIVER_OPTS:-}"
    for o in ${driver_opts[@]+"${driver_opts[@]}"}; do [[ "$o" == -D* ]] && jit_opts+=" $o"; done
    FERRY_JIT=$(FERRY_JIT=c1 FERRY_DRIVER_OPTS="$jit_opts" ferry_java io.ferry.LocalJvm "$@" 2>/dev/null) || FERRY_JIT=late-c2
    [[ "$FERRY_JIT" =~ ^(c1|late-c2)$ ]] || FERRY_JIT=late-c2 # the run itself names a bad job's problems
  fi
  export FERRY_JIT
fi
if [ -n "${SPARK_HOME:-}" ]; then
  exec "$SPARK_HOME/bin/spark-submit" --master "${SPARK_MASTER:-local[*]}" --class io.ferry.Ferry \
    "$FERRY_HOME/target/ferry.jar" "$command" "$@"
fi
ferry_java io.ferry.Ferry "$command" "$@"
