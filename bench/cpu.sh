#!/usr/bin/env bash
# Per-core efficiency (issue 16, part 3): the marginal client CPU-seconds per GB and per 1,000 small objects, Ferry
# against its peers. bench/run.sh's benchmark (io.ferry.bench.Bench: two S3Proxy endpoints on loopback, every copy
# verified by SHA-256, CPU by /usr/bin/time) runs each job at two sizes; the difference of the two runs' CPU over the
# difference of their bytes (objects) cancels each tool's start-up. Results: bench/results/cpu.csv (the runs) and
# cpu.md (the marginal figures, each session's table with its notes; the table is printed and left in target/).
#   bench/cpu.sh                                   # FERRY_BENCH_REPEAT=3: each run three times, the median CPU taken
#   FERRY_CPU_SCALES="1.0 2.0" FERRY_BENCH_WORKLOADS=large,small FERRY_BENCH_TASKS=files,other,same FERRY_BENCH_TOOLS=ferry,rclone-tuned,aws-tuned,s3cmd bench/cpu.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
cd "$FERRY_HOME"
CSV="$FERRY_HOME/bench/results/cpu.csv"
export FERRY_BENCH_RESULTS="$CSV" FERRY_BENCH_MODES=direct
export FERRY_BENCH_WORKLOADS="${FERRY_BENCH_WORKLOADS:-large,small}" FERRY_BENCH_TASKS="${FERRY_BENCH_TASKS:-files,other}"
export FERRY_BENCH_TOOLS="${FERRY_BENCH_TOOLS:-ferry,rclone-tuned,aws-tuned}"
since=${FERRY_CPU_SINCE:-$(date -u +%Y%m%dT%H%M%S)} # the sessions of this invocation (or of several, from FERRY_CPU_SINCE)
for scale in ${FERRY_CPU_SCALES:-1.0 2.0}; do
  FERRY_BENCH_SCALE="$scale" bash bench/run.sh
  # uploads unsigned (no SHA-256 of every byte), where there are uploads: to the other endpoint (FERRY_CPU_UNSIGNED=0: not)
  [[ ",$FERRY_BENCH_TASKS," == *,other,* && "${FERRY_CPU_UNSIGNED:-1}" = 1 ]] && FERRY_BENCH_SCALE="$scale" FERRY_BENCH_TASKS=other \
    FERRY_BENCH_TOOLS=ferry@destination.unsigned-payload=true bash bench/run.sh
done
# the marginal figures: for each workload, task and tool, its newest run at each of the two sizes
# the table goes to the console and target/ (bench/results/cpu.md keeps each session's table with its notes)
mkdir -p "$FERRY_HOME/target"
python3 - "$CSV" "$since" > "$FERRY_HOME/target/cpu-marginal.md" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["verified"] == "yes" and r["session"] >= sys.argv[2]]
runs = {}
for r in rows:
    runs.setdefault((r["workload"], r["task"], r["tool"]), {}).setdefault(int(r["bytes"]), []).append(r)
by = {} # each size's run of median CPU (an odd count of runs; of an even count, the upper median)
for key, sizes in runs.items():
    by[key] = {b: sorted(rs, key=lambda r: float(r["cpu_s"]))[len(rs) // 2] for b, rs in sizes.items()}
n_runs = {key: min(len(rs) for rs in sizes.values()) for key, sizes in runs.items()}
print("# Marginal client CPU per GB and per 1,000 objects (bench/cpu.sh)\n")
print("Each job at two sizes; the difference of CPU-seconds over the difference of GB (objects), so a tool's start-up"
      " cancels. CPU of the tool's process tree (`/usr/bin/time`), not the servers'; of several runs of a size, the"
      " median. Runs in cpu.csv.\n")
print("| workload | task | tool | runs | CPU s, smaller job | CPU s, larger job | GB more | objects more | marginal CPU s/GB | marginal CPU s/1,000 objects |")
print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for (w, t, tool), sizes in sorted(by.items()):
    if len(sizes) < 2:
        continue
    a, b = sizes[min(sizes)], sizes[max(sizes)]
    gb = (int(b["bytes"]) - int(a["bytes"])) / 1e9
    n = int(b["objects"]) - int(a["objects"])
    cpu = float(b["cpu_s"]) - float(a["cpu_s"])
    print("| %s | %s | %s | %d | %.1f | %.1f | %.2f | %d | %s | %s |" % (w, t, tool, n_runs[(w, t, tool)], float(a["cpu_s"]), float(b["cpu_s"]), gb, n,
          "%.2f" % (cpu / gb) if gb > 0 else "", "%.2f" % (cpu / n * 1000) if n > 0 else ""))
PY
cat "$FERRY_HOME/target/cpu-marginal.md"
