#!/usr/bin/env bash
# A simulated cluster with one network link per host (issue 16): K "hosts" as network namespaces, each behind its own
# veth capped by tc tbf in both directions; S3Proxy and the Spark master outside them; one Spark worker (one core) per
# host, the driver and the single-host peers on host 1. Ferry at K = 1, 2, 4 against rclone and the AWS CLI (tuned) on
# host 1 (and s3cmd and DistCp's local runner, tuned, there to a directory) and rclone sharded by hand (one process
# per host, each a slice of the keys), to a directory every host sees
# (dir) and to a second S3Proxy (bucket). Every copy is checked by SHA-256. Needs root (ip netns, tc). Cleans up what
# it creates. The hosts reach both S3Proxies through the WAN emulator (FERRY_CLUSTER_DELAY_MS each way; 0: directly).
# Results: bench/results/cluster.csv.
#   bench/cluster.sh
#   FERRY_CLUSTER_RATE=80mbit FERRY_CLUSTER_DELAY_MS=10 FERRY_CLUSTER_KS="1 2 4" FERRY_CLUSTER_WORKLOADS="large huge small mixed" \
#     FERRY_CLUSTER_DESTS="dir bucket" FERRY_CLUSTER_PEERS="rclone aws sharded" FERRY_CLUSTER_REPEAT=1 bench/cluster.sh
#   FERRY_CLUSTER_KS= FERRY_CLUSTER_PEERS="s3cmd distcp" FERRY_CLUSTER_DESTS=dir bench/cluster.sh   # those peers only
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
ferry_build
cd "$FERRY_HOME"
[ -d target/spark-home/jars ] || mvn -B -q -DskipTests verify # the Spark home the cluster runs from
RATE="${FERRY_CLUSTER_RATE:-80mbit}"
KS="${FERRY_CLUSTER_KS-1 2 4}" # set and empty: no Ferry runs
WORKLOADS="${FERRY_CLUSTER_WORKLOADS:-large huge small mixed}"
DESTS="${FERRY_CLUSTER_DESTS:-dir bucket}"
PEERS="${FERRY_CLUSTER_PEERS-rclone aws sharded}" # set and empty: no peers
REPEAT="${FERRY_CLUSTER_REPEAT:-1}"
# Ferry's variants, each a run: "plain" (Spark's defaults), "cds" (the executors map a class-data archive of their classes,
# recorded first by a run that is not counted: docs/cluster.md); a "-noprefix" suffix turns limits.prefix-rates off
VARIANTS="${FERRY_CLUSTER_VARIANTS:-plain}"
DELAY_MS="${FERRY_CLUSTER_DELAY_MS:-10}"
HOSTS=4
WORK="$FERRY_HOME/target/bench-cluster"
CSV="${FERRY_CLUSTER_CSV:-$FERRY_HOME/bench/results/cluster.csv}"
PORT=19090 DST_PORT=19092 MASTER_PORT=17077 LINK_PORT=19091 WAN_PORT=19093 DST_WAN_PORT=19094
ROOT_IP=10.77.1.1 # both S3Proxies, the master and the link check listen on host 1's root-side address
export SPARK_HOME="$FERRY_HOME/target/spark-home" SPARK_SCALA_VERSION=2.13 SPARK_JAVA_OPENS
mkdir -p "$WORK/logs"
# target/spark-home holds Spark's jars only (what the tests' cluster runs from): each Spark process is a plain JVM
spark_java() { # [ENV=... ] main args...; exec: a process started with & is the JVM itself, which cleanup kills
  exec java -Xmx768m $SPARK_JAVA_OPENS -Dspark.master.rest.enabled=false -cp "$SPARK_HOME/jars/*" "$@"
}

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 1
  for i in $(seq 1 $HOSTS); do ip netns pids "fh$i" 2>/dev/null | xargs -r kill -9 2>/dev/null || true; ip netns del "fh$i" 2>/dev/null || true
    ip link del "fv$i" 2>/dev/null || true; rm -rf "/etc/netns/fh$i"; done
}
trap cleanup EXIT

# ---- the hosts: namespace fhN, its link fvN (root side, 10.77.N.1) <-> fpN (inside, 10.77.N.2), capped both ways
cleanup
sysctl -qw net.ipv4.ip_forward=1
# names resolve from a hosts file and DNS fails at once: the machine's resolver is out of the namespaces' reach, and
# the JVMs' reverse lookups would each wait out its timeout (10 s before an executor's first line)
hosts=$(printf '127.0.0.1 localhost\n127.0.0.1 %s\n' "$(hostname)"; for i in $(seq 1 $HOSTS); do printf '10.77.%s.1 fv%s\n10.77.%s.2 fh%s\n' $i $i $i $i; done)
for i in $(seq 1 $HOSTS); do
  mkdir -p "/etc/netns/fh$i" # ip netns exec mounts these over /etc/hosts and /etc/resolv.conf
  echo "$hosts" > "/etc/netns/fh$i/hosts"; echo "nameserver 127.0.0.1" > "/etc/netns/fh$i/resolv.conf"
  ip netns add "fh$i"
  ip link add "fv$i" type veth peer name "fp$i"
  ip link set "fp$i" netns "fh$i"
  ip addr add "10.77.$i.1/24" dev "fv$i"; ip link set "fv$i" up
  ip netns exec "fh$i" ip addr add "10.77.$i.2/24" dev "fp$i"
  ip netns exec "fh$i" ip link set "fp$i" up; ip netns exec "fh$i" ip link set lo up
  ip netns exec "fh$i" ip route add default via "10.77.$i.1"
  tc qdisc add dev "fv$i" root tbf rate "$RATE" burst 64kb latency 50ms
  ip netns exec "fh$i" tc qdisc add dev "fp$i" root tbf rate "$RATE" burst 64kb latency 50ms
done

# ---- data: random files, uploaded once to the source S3Proxy (filesystem backend) from the root namespace (not capped)
mkdir -p "$WORK/files"
[ -f "$WORK/files/huge/huge.bin" ] || { mkdir -p "$WORK/files/huge"; head -c $((2048 << 20)) /dev/urandom > "$WORK/files/huge/huge.bin"; }
if [ ! -f "$WORK/files/large/part-19.bin" ]; then
  mkdir -p "$WORK/files/large"; for n in $(seq 0 19); do head -c $((64 << 20)) /dev/urandom > "$WORK/files/large/part-$n.bin"; done
fi
smalls() { # dir count folders: count objects of 16-64 KiB (random sizes, seeded) in folders of count/folders
  python3 - "$@" <<'PY'
import os, random, sys
d, n, folders = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rnd = random.Random(n)
for i in range(n):
    f = os.path.join(d, "d%02d" % (i % folders)); os.makedirs(f, exist_ok=True)
    with open(os.path.join(f, "obj-%06d.bin" % i), "wb") as out: out.write(os.urandom(rnd.randint(16 << 10, 64 << 10)))
PY
}
regenerate() { rm -rf "$WORK/files/$1" "$WORK/files/$1.uploaded" "$WORK/files/$1.digests"; } # then made again
[ -f "$WORK/files/small.done" ] || { regenerate small; smalls "$WORK/files/small" 30000 30; touch "$WORK/files/small.done"; }
if [ ! -f "$WORK/files/mixed.done" ]; then # one 768 MiB object, six of 64 MiB, 6,000 small ones
  regenerate mixed; smalls "$WORK/files/mixed/small" 6000 6
  mkdir -p "$WORK/files/mixed/large"; head -c $((768 << 20)) /dev/urandom > "$WORK/files/mixed/large/video.bin"
  for n in $(seq 0 5); do head -c $((64 << 20)) /dev/urandom > "$WORK/files/mixed/large/part-$n.bin"; done
  touch "$WORK/files/mixed.done"
fi
digests() { (cd "$1" && find . -type f -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' sha256sum); }
for w in large huge small mixed; do [ -f "$WORK/files/$w.digests" ] || digests "$WORK/files/$w" > "$WORK/files/$w.digests"; done
s3proxy() { # port basedir
  printf '%s\n' "s3proxy.endpoint=http://$ROOT_IP:$1" s3proxy.authorization=aws-v2-or-v4 s3proxy.identity=bench \
    s3proxy.credential=bench-secret jclouds.provider=filesystem-nio2 "jclouds.filesystem.basedir=$2" > "$2.properties"
  mkdir -p "$2"
  java -Xmx1g -DLOG_LEVEL=warn -jar target/s3proxy/s3proxy.jar --properties "$2.properties" > "$WORK/logs/s3proxy-$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 150); do curl -s -o /dev/null "http://$ROOT_IP:$1/" && break; sleep 0.2; done
}
rm -rf "$WORK/data-dst"
s3proxy $PORT "$WORK/data"
s3proxy $DST_PORT "$WORK/data-dst"
SRC_EP="http://$ROOT_IP:$PORT" DST_EP="http://$ROOT_IP:$DST_PORT" # what the hosts' tools are given
if [ "$DELAY_MS" != 0 ]; then # latency only: each host's link is capped by tc already
  for pair in "$WAN_PORT:$PORT" "$DST_WAN_PORT:$DST_PORT"; do
    ferry_lab_java io.ferry.support.WanEmulator "$ROOT_IP:${pair%:*}" "$ROOT_IP:${pair#*:}" 10000 "$DELAY_MS" \
      > "$WORK/logs/wan-${pair%:*}.log" 2>&1 &
    pids+=($!)
  done
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://$ROOT_IP:$DST_WAN_PORT/" && curl -s -o /dev/null "http://$ROOT_IP:$WAN_PORT/" && break; sleep 0.2; done
  SRC_EP="http://$ROOT_IP:$WAN_PORT" DST_EP="http://$ROOT_IP:$DST_WAN_PORT"
fi
unset AWS_CA_BUNDLE # rclone and the AWS CLI refuse it on plain http
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench-secret AWS_DEFAULT_REGION=us-east-1 AWS_CONFIG_FILE="$WORK/aws-config"
printf '[default]\ns3 =\n  max_concurrent_requests = 32\n  multipart_chunksize = 64MB\n  multipart_threshold = 64MB\n' > "$AWS_CONFIG_FILE"
for side in SRC DST UPLOAD; do # UPLOAD: the source without the WAN, to seed it
  port=$PORT; [ $side = DST ] && port=$DST_PORT
  endpoint="http://$ROOT_IP:$port"; [ $side = SRC ] && endpoint=$SRC_EP; [ $side = DST ] && endpoint=$DST_EP
  export "RCLONE_CONFIG_${side}_TYPE=s3" "RCLONE_CONFIG_${side}_PROVIDER=Other" "RCLONE_CONFIG_${side}_ACCESS_KEY_ID=bench" \
    "RCLONE_CONFIG_${side}_SECRET_ACCESS_KEY=bench-secret" "RCLONE_CONFIG_${side}_FORCE_PATH_STYLE=true" \
    "RCLONE_CONFIG_${side}_ENDPOINT=$endpoint"
done
for w in large huge small mixed; do
  [ -f "$WORK/files/$w.uploaded" ] || { rclone copy "$WORK/files/$w" "upload:$w" --transfers 32 --s3-upload-concurrency 8 && touch "$WORK/files/$w.uploaded"; }
done

# ---- the emulation checked: each host's link alone, then all four at once (plain HTTP from the root namespace)
python3 -m http.server --bind "$ROOT_IP" "$LINK_PORT" --directory "$WORK/files/large" > "$WORK/logs/link.log" 2>&1 &
pids+=($!)
sleep 1
for i in $(seq 1 $HOSTS); do # 64 MiB each: 45 s a host at 12 mbit (FERRY_CLUSTER_LINK_CHECK=0 skips it)
  [ "${FERRY_CLUSTER_LINK_CHECK:-1}" = 1 ] || break
  echo "link host $i alone: $(ip netns exec "fh$i" curl -s -o /dev/null -w '%{speed_download}' "http://$ROOT_IP:$LINK_PORT/part-0.bin" | awk '{printf "%.1f MB/s", $1/1e6}')"
done

# ---- Spark: the master outside the hosts, a one-core worker in each
SPARK_LOCAL_IP=$ROOT_IP spark_java org.apache.spark.deploy.master.Master --host $ROOT_IP --port $MASTER_PORT \
  --webui-port 18080 > "$WORK/logs/master.log" 2>&1 &
pids+=($!)
sleep 5
for i in $(seq 1 $HOSTS); do
  ip netns exec "fh$i" env SPARK_LOCAL_IP="10.77.$i.2" bash -c "$(declare -f spark_java); spark_java \"\$@\"" _ org.apache.spark.deploy.worker.Worker \
    "spark://$ROOT_IP:$MASTER_PORT" --host "10.77.$i.2" --cores 1 --memory 3g --webui-port $((18080 + i)) \
    --work-dir "$WORK/worker-$i" > "$WORK/logs/worker-$i.log" 2>&1 &
  pids+=($!)
done
sleep 8

[ -f "$CSV" ] || echo "when,workload,dest,tool,hosts,rate_per_host,bytes,objects,wall_s,copy_s,spark_s,mb_s,objects_per_s,cpu_busy_pct,verified,copy_cpu_busy_pct,delay_ms" > "$CSV"
cpu() { awk '/^cpu / {print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; } # busy (no iowait), all
while :; do echo "$(date +%s.%N) $(cpu)"; sleep 1; done > "$WORK/cpu.log" & # the machine's CPU, a line a second
pids+=($!)
busy_between() { # from to (epoch seconds): the machine's busy % over that window
  awk -v a="$1" -v b="$2" '$1 >= a && !s {s = 1; b0 = $2; t0 = $3} $1 <= b {b1 = $2; t1 = $3} END {if (t1 > t0) printf "%.0f", 100 * (b1 - b0) / (t1 - t0)}' "$WORK/cpu.log"
}
copy_window() { # summary.json: the copy stage's start and end (epoch seconds), from the run's start and its stages in order
  python3 - "$1" <<'PY'
import datetime, json, sys
s = json.load(open(sys.argv[1]))
whole, _, fraction = s["startedAt"].rstrip("Z").partition(".")
t = datetime.datetime.fromisoformat(whole + "+00:00").timestamp() + float("0." + (fraction or "0"))
for stage, seconds in s["stageSeconds"].items():
    if stage == "copy": print(t, t + seconds); break
    t += seconds
PY
}
record() { # workload dest tool hosts seconds copy_s spark_s out_dir cpu0 cpu1 [copy_busy]
  local bytes objects verified busy
  bytes=$(find "$8" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
  objects=$(find "$8" -type f | wc -l)
  verified=$(digests "$8" | cmp -s - "$WORK/files/$1.digests" && echo yes || echo NO)
  busy=$(awk -v a="$9" -v b="${10}" 'BEGIN {split(a, x, " "); split(b, y, " "); printf "%.0f", 100 * (y[1] - x[1]) / (y[2] - x[2])}')
  printf '%s,%s,%s,%s,%s,%s,%s,%s,%.1f,%s,%s,%.1f,%.2f,%s,%s,%s,%s\n' "$(date -u +%FT%TZ)" "$1" "$2" "$3" "$4" "$RATE" "$bytes" "$objects" \
    "$5" "$6" "$7" "$(echo "$bytes / $5 / 1000000" | bc -l)" "$(echo "$objects / $5" | bc -l)" "$busy" "$verified" "${11:-}" "$DELAY_MS" | tee -a "$CSV"
  rm -rf "$8"
}
target() { # dest name: where a run writes (a fresh directory, or a fresh bucket whose files S3Proxy keeps under data-dst)
  if [ "$1" = dir ]; then rm -rf "$WORK/out/$2"; mkdir -p "$WORK/out/$2"; echo "$WORK/out/$2"
  else rclone mkdir "dst:$2"
    echo "$WORK/data-dst/$2"; fi
}
submit() { # hosts job.conf log [--conf k=v ...]: Ferry through spark-submit, the driver on host 1
  local k=$1 conf=$2 log=$3; shift 3
  # the jar from the shared disk (local:): fetched from the driver, 15 MB would cross host 1's capped link once per
  # executor, which on a real cluster is the LAN, not the link to the endpoints
  on_host 1 env SRC_SECRET=bench-secret SPARK_LOCAL_IP=10.77.1.2 bash -c "$(declare -f spark_java); spark_java \"\$@\"" _ \
    org.apache.spark.deploy.SparkSubmit --master "spark://$ROOT_IP:$MASTER_PORT" --deploy-mode client \
    --conf spark.driver.host=10.77.1.2 --conf spark.cores.max="$k" \
    --conf spark.executor.memory=2g --conf spark.scheduler.minRegisteredResourcesRatio=1.0 --conf spark.ui.enabled=false \
    "$@" --class io.ferry.Ferry "local:$FERRY_HOME/target/ferry.jar" migrate "$conf" > "$log" 2>&1
}
executor_cds_record() { # an executor's classes, written as it exits: one executor (four at once outlast the 10 s a worker
  # gives an exiting executor on two cores), over a slice of `mixed` that copies a large object in parts and small ones whole
  local out conf="$WORK/cds/record.conf"
  mkdir -p "$WORK/cds"; rm -f "$WORK"/cds/executor-*
  out=$(target dir cds-record)
  cat > "$conf" <<CONF
ferry {
  job.name = cds-record
  source { endpoint = "$SRC_EP", bucket = mixed, includes = ["large/part-0.bin", "small/d00/**"]
    credentials { access-key-id = bench, secret-access-key = \${?SRC_SECRET} } }
  destination.path = "$out"
  report.path = "$WORK/cds/reports"
}
CONF
  submit 1 "$conf" "$WORK/logs/cds-record.log" \
    --conf "spark.executor.extraJavaOptions=-XX:ArchiveClassesAtExit=$WORK/cds/executor-{{EXECUTOR_ID}}.jsa -Xlog:cds*=info:file=$WORK/cds/executor-{{EXECUTOR_ID}}.log" || true
  for _ in $(seq 1 30); do [ -s "$WORK/cds/executor-0.jsa" ] && break; sleep 1; done # written as the executor exits
  rm -rf "$out" "$WORK/cds/reports"
  [ -s "$WORK/cds/executor-0.jsa" ] || { echo "no executor archive: see $WORK/logs/cds-record.log and $WORK/cds/executor-0.log" >&2; exit 1; }
  mv "$WORK/cds/executor-0.jsa" "$WORK/cds/executor.jsa"
}
on_host() { # host command...: a command in host's namespace
  local host=$1; shift
  ip netns exec "fh$host" "$@"
}
# DistCp tuned as bench/run.sh runs it (io.ferry.bench.Bench#distcp): 16 maps in threads of the local job runner
mkdir -p "$WORK/distcp-services/META-INF/services"
echo io.ferry.bench.ParallelLocalProvider > "$WORK/distcp-services/META-INF/services/org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider"
distcp=(java -Xmx2g -Daws.requestChecksumCalculation=WHEN_REQUIRED -Daws.responseChecksumValidation=WHEN_REQUIRED
  "-Dlog4j2.configurationFile=$FERRY_HOME/conf/log4j2.properties"
  -cp "$FERRY_HOME/target/distcp/*:$WORK/distcp-services:$FERRY_HOME/target/classes:$FERRY_HOME/target/test-classes:$(ferry_dependencies)"
  org.apache.hadoop.tools.DistCp "-Dfs.s3a.endpoint=$SRC_EP" -Dfs.s3a.endpoint.region=us-east-1 -Dfs.s3a.path.style.access=true
  -Dfs.s3a.connection.ssl.enabled=false
  -Dfs.s3a.aws.credentials.provider=software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider
  "-Dhadoop.tmp.dir=$WORK/distcp-tmp" -Dmapreduce.framework.name=ferry-bench-local -Dmapreduce.local.map.tasks.maximum=16
  -Dfs.s3a.threads.max=64 -Dfs.s3a.connection.maximum=128 -m 16)
tuned=(--transfers 32 --checkers 32 --multi-thread-streams 8 --multi-thread-cutoff 64M --s3-upload-concurrency 8 --s3-chunk-size 64M
  --s3-no-check-bucket)

run=0
for r in $(seq 1 "$REPEAT"); do
  for w in $WORKLOADS; do
    for d in $DESTS; do
      for k in $KS; do for v in $VARIANTS; do
        tool=ferry; executor_opts=() extra= # executor_opts: more --conf for spark-submit; extra: more job settings
        [ "$v" = plain ] || tool="ferry-$v"
        [[ "$v" == *-noprefix ]] && extra="limits.prefix-rates = false"
        if [[ "$v" == cds* ]]; then
          archive="$WORK/cds/executor.jsa"
          [ "$archive" -nt "$FERRY_HOME/target/ferry.jar" ] || executor_cds_record # once per build
          executor_opts=(--conf "spark.executor.extraJavaOptions=-XX:SharedArchiveFile=$archive -Xlog:cds=off -Xlog:cds+dynamic=off")
        fi
        run=$((run + 1)); name="ferry-$w-$k-$run"; out=$(target "$d" "$name"); rm -rf "$WORK/reports"
        if [ "$d" = dir ]; then destination="destination.path = \"$out\""
        else destination="destination { type = s3, endpoint = \"$DST_EP\", bucket = $name, credentials { access-key-id = bench, secret-access-key = \${?SRC_SECRET} } }"; fi
        cat > "$WORK/$w.conf" <<CONF
ferry {
  job.name = cluster-$w
  source { endpoint = "$SRC_EP", bucket = $w, credentials { access-key-id = bench, secret-access-key = \${?SRC_SECRET} } }
  $destination
  report.path = "$WORK/reports"
  $extra
}
CONF
        c0=$(cpu); start=$(date +%s.%N)
        submit "$k" "$WORK/$w.conf" "$WORK/logs/$name-$d.log" ${executor_opts[@]+"${executor_opts[@]}"} || true # verified below
        end=$(date +%s.%N); c1=$(cpu)
        copy=$(grep -o 'copied in [0-9.]* s of copying' "$WORK/logs/$name-$d.log" | grep -o '[0-9.]*' | head -1 || true)
        spark=$(grep -o 'spark [0-9.]* s' "$WORK/logs/$name-$d.log" | grep -o '[0-9.]*' | head -1 || true)
        cp "$WORK"/reports/cluster-"$w"/*/summary.json "$WORK/logs/$name-$d.json" 2>/dev/null || true
        copy_busy=$(busy_between $(copy_window "$WORK/logs/$name-$d.json" 2>/dev/null || echo "0 0"))
        record "$w" "$d" "$tool" "$k" "$(echo "$end - $start" | bc -l)" "${copy:-}" "${spark:-}" "$out" "$c0" "$c1" "$copy_busy"
      done; done
      for peer in $PEERS; do
        run=$((run + 1)); name="$peer-$w-$run"
        case "$peer" in
          rclone) out=$(target "$d" "$name"); dst="$out"; [ "$d" = bucket ] && dst="dst:$name"
            c0=$(cpu); start=$(date +%s.%N)
            on_host 1 rclone copy "src:$w" "$dst" "${tuned[@]}" || true # verified below
            end=$(date +%s.%N); c1=$(cpu)
            record "$w" "$d" rclone-tuned 1 "$(echo "$end - $start" | bc -l)" "" "" "$out" "$c0" "$c1" ;;
          aws) [ "$d" = dir ] || continue # one endpoint only
            out=$(target "$d" "$name"); c0=$(cpu); start=$(date +%s.%N)
            on_host 1 aws s3 cp --recursive --only-show-errors --endpoint-url "$SRC_EP" "s3://$w/" "$out" || true
            end=$(date +%s.%N); c1=$(cpu)
            record "$w" "$d" aws-tuned 1 "$(echo "$end - $start" | bc -l)" "" "" "$out" "$c0" "$c1" ;;
          s3cmd) [ "$d" = dir ] || continue # one endpoint only
            out=$(target "$d" "$name"); c0=$(cpu); start=$(date +%s.%N)
            on_host 1 s3cmd --quiet --no-ssl --host="${SRC_EP#http://}" --host-bucket="${SRC_EP#http://}" --access_key=bench \
              --secret_key=bench-secret get --recursive "s3://$w/" "$out/" || true
            end=$(date +%s.%N); c1=$(cpu)
            record "$w" "$d" s3cmd 1 "$(echo "$end - $start" | bc -l)" "" "" "$out" "$c0" "$c1" ;;
          distcp) [ "$d" = dir ] || continue
            out=$(target "$d" "$name"); c0=$(cpu); start=$(date +%s.%N)
            on_host 1 "${distcp[@]}" -update "s3a://$w/" "file://$out/" > "$WORK/logs/$name.log" 2>&1 || true
            end=$(date +%s.%N); c1=$(cpu)
            find "$out" -name '.*.crc' -delete # Hadoop's local checksum files, beside the copies
            record "$w" "$d" distcp-tuned 1 "$(echo "$end - $start" | bc -l)" "" "" "$out" "$c0" "$c1" ;;
          sharded) [ "$w" = huge ] && continue # one object: nothing to shard
            out=$(target "$d" "$name"); dst="$out"; [ "$d" = bucket ] && dst="dst:$name"
            c0=$(cpu); start=$(date +%s.%N); shard=()
            for i in $(seq 1 $HOSTS); do # host i copies the keys whose number is i modulo the hosts
              cut -c67- "$WORK/files/$w.digests" | awk -v i="$i" -v n="$HOSTS" 'NR % n == i % n' > "$WORK/shard-$i.txt"
              on_host "$i" rclone copy "src:$w" "$dst" --files-from "$WORK/shard-$i.txt" "${tuned[@]}" &
              shard+=($!)
            done
            for p in "${shard[@]}"; do wait "$p" || true; done # a failed shard shows in the verification
            end=$(date +%s.%N); c1=$(cpu)
            record "$w" "$d" rclone-sharded "$HOSTS" "$(echo "$end - $start" | bc -l)" "" "" "$out" "$c0" "$c1" ;;
        esac
      done
    done
  done
done
