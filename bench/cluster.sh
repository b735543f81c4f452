#!/usr/bin/env bash
# A simulated cluster with one network link per host (issue 16): K "hosts" as network namespaces, each behind its own
# veth capped by tc tbf in both directions; S3Proxy and the Spark master outside them; one Spark worker (one core) per
# host, the driver and the single-host peers on host 1. Ferry at K = 1, 2, 4 against rclone (tuned) on host 1 and
# rclone sharded by hand (one process per host, each a slice of the keys). Every copy is checked by SHA-256.
# Needs root (ip netns, tc). Cleans up what it creates. Results: bench/results/cluster.csv.
#   bench/cluster.sh
#   FERRY_CLUSTER_RATE=160mbit FERRY_CLUSTER_KS="1 2 4" FERRY_CLUSTER_WORKLOADS="large huge" FERRY_CLUSTER_REPEAT=1 bench/cluster.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../jobs/env.sh"
ferry_build
cd "$FERRY_HOME"
[ -d target/spark-home/jars ] || mvn -B -q -DskipTests verify # the Spark home the cluster runs from
RATE="${FERRY_CLUSTER_RATE:-160mbit}"
KS="${FERRY_CLUSTER_KS:-1 2 4}"
WORKLOADS="${FERRY_CLUSTER_WORKLOADS:-large huge}"
REPEAT="${FERRY_CLUSTER_REPEAT:-1}"
HOSTS=4
WORK="$FERRY_HOME/target/bench-cluster"
CSV="$FERRY_HOME/bench/results/cluster.csv"
PORT=19090 MASTER_PORT=17077 LINK_PORT=19091
ROOT_IP=10.77.1.1 # S3Proxy, the master and the link check listen on host 1's root-side address
export SPARK_HOME="$FERRY_HOME/target/spark-home" SPARK_SCALA_VERSION=2.13 SPARK_JAVA_OPENS
mkdir -p "$WORK/logs"
# target/spark-home holds Spark's jars only (what the tests' cluster runs from): each Spark process is a plain JVM
spark_java() { # [ENV=... ] main args...
  java -Xmx768m $SPARK_JAVA_OPENS -Dspark.master.rest.enabled=false -cp "$SPARK_HOME/jars/*" "$@"
}

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 1
  for i in $(seq 1 $HOSTS); do ip netns pids "fh$i" 2>/dev/null | xargs -r kill -9 2>/dev/null || true; ip netns del "fh$i" 2>/dev/null || true
    ip link del "fv$i" 2>/dev/null || true; done
}
trap cleanup EXIT

# ---- the hosts: namespace fhN, its link fvN (root side, 10.77.N.1) <-> fpN (inside, 10.77.N.2), capped both ways
cleanup
sysctl -qw net.ipv4.ip_forward=1
for i in $(seq 1 $HOSTS); do
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

# ---- data: random files, uploaded once to S3Proxy (filesystem backend) from the root namespace (not capped)
mkdir -p "$WORK/files"
[ -f "$WORK/files/huge/huge.bin" ] || { mkdir -p "$WORK/files/huge"; head -c $((2048 << 20)) /dev/urandom > "$WORK/files/huge/huge.bin"; }
if [ ! -f "$WORK/files/large/part-19.bin" ]; then
  mkdir -p "$WORK/files/large"; for n in $(seq 0 19); do head -c $((64 << 20)) /dev/urandom > "$WORK/files/large/part-$n.bin"; done
fi
for w in large huge; do (cd "$WORK/files/$w" && sha256sum * | sort -k2) > "$WORK/files/$w.sha256"; done
printf '%s\n' "s3proxy.endpoint=http://$ROOT_IP:$PORT" s3proxy.authorization=aws-v2-or-v4 s3proxy.identity=bench \
  s3proxy.credential=bench-secret jclouds.provider=filesystem-nio2 "jclouds.filesystem.basedir=$WORK/data" > "$WORK/s3proxy.properties"
mkdir -p "$WORK/data"
java -Xmx1g -DLOG_LEVEL=warn -jar target/s3proxy/s3proxy.jar --properties "$WORK/s3proxy.properties" > "$WORK/logs/s3proxy.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 150); do curl -s -o /dev/null "http://$ROOT_IP:$PORT/" && break; sleep 0.2; done
unset AWS_CA_BUNDLE # rclone refuses it on plain http
export RCLONE_CONFIG_SRC_TYPE=s3 RCLONE_CONFIG_SRC_PROVIDER=Other RCLONE_CONFIG_SRC_ACCESS_KEY_ID=bench \
  RCLONE_CONFIG_SRC_SECRET_ACCESS_KEY=bench-secret RCLONE_CONFIG_SRC_FORCE_PATH_STYLE=true \
  RCLONE_CONFIG_SRC_ENDPOINT="http://$ROOT_IP:$PORT"
for w in large huge; do
  [ -d "$WORK/data/$w" ] || rclone copy "$WORK/files/$w" "src:$w" --transfers 8 --s3-upload-concurrency 8
done

# ---- the emulation checked: each host's link alone, then all four at once (plain HTTP from the root namespace)
python3 -m http.server --bind "$ROOT_IP" "$LINK_PORT" --directory "$WORK/files/large" > "$WORK/logs/link.log" 2>&1 &
pids+=($!)
sleep 1
for i in $(seq 1 $HOSTS); do
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

[ -f "$CSV" ] || echo "when,workload,tool,hosts,rate_per_host,bytes,wall_s,copy_s,mb_s,cpu_busy_pct,verified" > "$CSV"
cpu() { awk '/^cpu / {print $2+$3+$4+$6+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat; }
record() { # workload tool hosts seconds copy_s out_dir cpu0 cpu1
  local bytes verified busy
  bytes=$(du -sb --apparent-size "$6" | cut -f1)
  verified=$( (cd "$6" && sha256sum * | sort -k2) | cmp -s - "$WORK/files/$1.sha256" && echo yes || echo NO)
  busy=$(awk -v a="$7" -v b="$8" 'BEGIN {split(a, x, " "); split(b, y, " "); printf "%.0f", 100 * (y[1] - x[1]) / (y[2] - x[2])}')
  printf '%s,%s,%s,%s,%s,%s,%.1f,%s,%.1f,%s,%s\n' "$(date -u +%FT%TZ)" "$1" "$2" "$3" "$RATE" "$bytes" "$4" "$5" \
    "$(echo "$bytes / $4 / 1000000" | bc -l)" "$busy" "$verified" | tee -a "$CSV"
}

for r in $(seq 1 "$REPEAT"); do
  for w in $WORKLOADS; do
    for k in $KS; do
      out="$WORK/out/ferry-$w-$k"; rm -rf "$out" "$WORK/reports"; mkdir -p "$out"
      cat > "$WORK/$w.conf" <<CONF
ferry {
  job.name = cluster-$w
  source { endpoint = "http://$ROOT_IP:$PORT", bucket = $w, credentials { access-key-id = bench, secret-access-key = \${?SRC_SECRET} } }
  destination.path = "$out"
  report.path = "$WORK/reports"
}
CONF
      c0=$(cpu); start=$(date +%s.%N)
      ip netns exec fh1 env SRC_SECRET=bench-secret SPARK_LOCAL_IP=10.77.1.2 bash -c "$(declare -f spark_java); spark_java \"\$@\"" _ \
        org.apache.spark.deploy.SparkSubmit --master "spark://$ROOT_IP:$MASTER_PORT" --deploy-mode client \
        --conf spark.driver.host=10.77.1.2 --conf spark.cores.max="$k" \
        --conf spark.executor.memory=2g --conf spark.scheduler.minRegisteredResourcesRatio=1.0 --conf spark.ui.enabled=false \
        --class io.ferry.Ferry target/ferry.jar migrate "$WORK/$w.conf" > "$WORK/logs/ferry-$w-$k.log" 2>&1
      end=$(date +%s.%N); c1=$(cpu)
      copy=$(grep -o 'copied in [0-9.]* s of copying' "$WORK/logs/ferry-$w-$k.log" | grep -o '[0-9.]*' | head -1)
      record "$w" ferry "$k" "$(echo "$end - $start" | bc -l)" "${copy:-}" "$out" "$c0" "$c1"
    done
    tuned=(--transfers 16 --checkers 16 --multi-thread-streams 8 --multi-thread-cutoff 64M --s3-no-check-bucket)
    out="$WORK/out/rclone-$w"; rm -rf "$out"; mkdir -p "$out"
    c0=$(cpu); start=$(date +%s.%N)
    ip netns exec fh1 rclone copy "src:$w" "$out" "${tuned[@]}"
    end=$(date +%s.%N); c1=$(cpu)
    record "$w" rclone-tuned 1 "$(echo "$end - $start" | bc -l)" "" "$out" "$c0" "$c1"
    if [ "$w" = large ]; then # by hand: host i copies the keys whose number is i-1 modulo 4
      out="$WORK/out/rclone-sharded-$w"; rm -rf "$out"; mkdir -p "$out"
      c0=$(cpu); start=$(date +%s.%N); shard=()
      for i in $(seq 1 $HOSTS); do
        ls "$WORK/files/$w" | awk -v i="$i" -v n="$HOSTS" 'NR % n == i % n' > "$WORK/shard-$i.txt"
        ip netns exec "fh$i" rclone copy "src:$w" "$out" --files-from "$WORK/shard-$i.txt" "${tuned[@]}" &
        shard+=($!)
      done
      wait "${shard[@]}"
      end=$(date +%s.%N); c1=$(cpu)
      record "$w" rclone-sharded "$HOSTS" "$(echo "$end - $start" | bc -l)" "" "$out" "$c0" "$c1"
    fi
  done
done
