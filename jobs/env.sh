# Shared by the jobs/ scripts: where the repo is, how to build it, and the JVM options a Spark driver needs on Java 17.
FERRY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SPARK_JAVA_OPENS="--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED \
--add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED \
--add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED \
--add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED \
--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED \
--add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/sun.nio.cs=ALL-UNNAMED \
--add-opens=java.base/sun.security.action=ALL-UNNAMED --add-opens=java.base/sun.util.calendar=ALL-UNNAMED \
--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED -Djdk.reflect.useDirectMethodHandle=false \
-Dio.netty.tryReflectionSetAccessible=true"

# Builds the jars and the local classpath once (or again when sources changed), then, with FERRY_CDS=1, the
# class-data archive of the build (see ferry_java).
ferry_build() {
  local jar
  jar="$FERRY_HOME/target/ferry.jar"
  # FERRY_BUILT=1: the caller built it (bench/run.sh), and a source edited meanwhile must not rebuild inside a timed run
  if [ "${FERRY_BUILT:-0}" = 1 ] && [ -f "$jar" ]; then return 0; fi
  if [ ! -f "$jar" ] || [ ! -f "$FERRY_HOME/target/ferry-classes.jar" ] || [ ! -f "$FERRY_HOME/target/ferry-classes-tests.jar" ] || \
     [ ! -f "$FERRY_HOME/target/local-classpath.txt" ] || [ ! -f "$FERRY_HOME/target/local-runtime-classpath.txt" ] || \
     [ -n "$(find "$FERRY_HOME/src" "$FERRY_HOME/pom.xml" -newer "$jar" -print -quit)" ]; then
    echo "Building Ferry (mvn -DskipTests package) ..." >&2
    (cd "$FERRY_HOME" && mvn -B -q -DskipTests package) || return 1
  fi
  if [ "${FERRY_CDS:-0}" = 1 ] && ! ferry_cds_fresh && [ ! "$FERRY_HOME/target/cds/failed" -nt "$FERRY_HOME/target/ferry-classes.jar" ]; then
    echo "Recording the classes a run loads, for faster JVM starts (once per build, ~40 s) ..." >&2
    mkdir -p "$FERRY_HOME/target/cds"
    if ferry_cds_record > "$FERRY_HOME/target/cds/train.log" 2>&1; then
      rm -rf "$FERRY_HOME/target/cds/train"
    else
      touch "$FERRY_HOME/target/cds/failed" # not tried again until the next build
      echo "(no archive: see target/cds/train.log; runs start without it until the next build)" >&2
    fi
  fi
}

# The training run of the archive: a real job of the product classpath alone (so that every run of it may map the
# archive), bucket -> another bucket streamed through Ferry (ranged GETs, PutObject, a multipart upload), against an
# S3 server the lab seeds.
ferry_cds_record() {
  local dir="$FERRY_HOME/target/cds/train" archive="$FERRY_HOME/target/cds/ferry.jsa" port server status=0
  rm -rf "$dir"
  mkdir -p "$dir/data"
  port=$(ferry_free_port)
  printf '%s\n' "s3proxy.endpoint=http://127.0.0.1:$port" s3proxy.authorization=aws-v2-or-v4 s3proxy.identity=train \
    s3proxy.credential=train-secret jclouds.provider=filesystem-nio2 "jclouds.filesystem.basedir=$dir/data" > "$dir/s3proxy.properties"
  java -Xmx512m -DLOG_LEVEL=warn -jar "$FERRY_HOME/target/s3proxy/s3proxy.jar" --properties "$dir/s3proxy.properties" \
    > "$dir/s3proxy.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
  cat > "$dir/train.conf" <<CONF
ferry {
  job.name = cds-training
  source { endpoint = "http://127.0.0.1:$port", bucket = train, credentials { access-key-id = train, secret-access-key = train-secret } }
  destination { type = s3, endpoint = "http://127.0.0.1:$port", bucket = train-copy, server-side-copy = never
    credentials { access-key-id = train, secret-access-key = train-secret } }
  plan.part-size = 32MiB
  report.path = "$dir/reports"
}
CONF
  (ferry_lab_java io.ferry.support.SeedData "http://127.0.0.1:$port" train train-secret train $((72 << 20)) 20 train-copy) &&
    (FERRY_CDS_DUMP="$archive.$$" FERRY_DRIVER_OPTS="-Xmx1g" ferry_java io.ferry.Ferry migrate "$dir/train.conf") &&
    [ -s "$archive.$$" ] && mv -f "$archive.$$" "$archive" || status=1
  rm -f "$archive.$$"
  kill "$server" 2>/dev/null; wait "$server" 2>/dev/null
  return $status
}

# Where a run's Spark and library logs go (stack traces included): FERRY_LOG, else logs/ferry-<time>-<pid>.log. Made
# only when something is logged; a failure's line names it.
ferry_log_file() {
  echo "${FERRY_LOG:-$FERRY_HOME/logs/ferry-$(date -u +%Y%m%dT%H%M%SZ)-$$.log}"
}

# A free TCP port on loopback.
ferry_free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 40000))
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
  done
}

# Is the class-data archive newer than the jar and classpath it was recorded from?
ferry_cds_fresh() {
  local archive="$FERRY_HOME/target/cds/ferry.jsa"
  [ -f "$archive" ] && [ -z "$(find "$FERRY_HOME/target/ferry-classes.jar" "$FERRY_HOME/target/local-classpath.txt" "$FERRY_HOME/target/local-runtime-classpath.txt" -newer "$archive" -print -quit)" ]
}

# Runs a main class of the lab (the demo, the benchmark: src/lab with the tests' support, never in the product jar) on the product's local
# classpath with the lab's jar after it.
ferry_lab_java() {
  FERRY_EXTRA_CLASSPATH="$FERRY_HOME/target/ferry-classes-tests.jar" ferry_java "$@"
}

# The dependencies of a local run: compile and provided scope (Spark), then runtime scope (S3A), each jar once.
ferry_dependencies() {
  cat "$FERRY_HOME/target/local-classpath.txt" <(echo) "$FERRY_HOME/target/local-runtime-classpath.txt" | tr ':' '\n' | awk 'NF && !seen[$0]++' | paste -sd:
}

# Runs a main class on the local classpath (Spark from Maven, local mode). With FERRY_CDS=1 (jobs/migrate.sh and
# jobs/demo.sh set it) the JVM maps the class-data archive ferry_build recorded, so Spark starts sooner and with less
# CPU; FERRY_CDS=0 turns it off. The measurements behind these choices are in bench/results/README.md.
ferry_java() {
  local main="$1"; shift
  export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
  local cds=()
  if [ -n "${FERRY_CDS_DUMP:-}" ]; then
    cds=(-XX:ArchiveClassesAtExit="$FERRY_CDS_DUMP" -Xlog:cds=off -Xlog:cds+dynamic=off)
  elif [ "${FERRY_CDS:-0}" = 1 ] && ferry_cds_fresh; then
    cds=(-XX:SharedArchiveFile="$FERRY_HOME/target/cds/ferry.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off)
  fi
  # FERRY_JIT=late-c2: the second JIT compiler takes only methods called or looping 100x more often than its defaults,
  # so a short run does not spend a core compiling Spark's start-up code, while hot loops (SHA-256 signing, TLS) still
  # reach it. FERRY_JIT=c1 stops at the first compiler (cheapest, but AES then runs without its intrinsics; MD5 and
  # SHA-256 come from BoringSSL where it loads, store/checksums/Digests). jobs/migrate.sh asks the job which (`ferry
  # jit`); FERRY_JIT=default leaves HotSpot's choice.
  local jit=()
  case "${FERRY_JIT:-default}" in
    late-c2) jit=(-XX:Tier4InvocationThreshold=500000 -XX:Tier4MinInvocationThreshold=60000
      -XX:Tier4CompileThreshold=1500000 -XX:Tier4BackEdgeThreshold=4000000) ;;
    c1) jit=(-XX:TieredStopAtLevel=1) ;;
    default) ;;
    *) echo "FERRY_JIT=$FERRY_JIT: expected late-c2, c1 or default" >&2; return 2 ;;
  esac
  # FERRY_GC=parallel (set for local runs): the Parallel collector, cheaper than G1 on two cores shared with the S3
  # servers; FERRY_GC=serial collects a large plan's old generation on one thread; FERRY_GC=default is G1. Do not
  # also name a collector in FERRY_DRIVER_OPTS.
  local gc=()
  case "${FERRY_GC:-default}" in
    parallel) gc=(-XX:+UseParallelGC) ;;
    serial) gc=(-XX:+UseSerialGC) ;;
    default) ;;
    *) echo "FERRY_GC=$FERRY_GC: expected parallel, serial or default" >&2; return 2 ;;
  esac
  # shellcheck disable=SC2086
  exec java ${FERRY_DRIVER_OPTS:--Xmx4g} ${cds[@]+"${cds[@]}"} ${jit[@]+"${jit[@]}"} ${gc[@]+"${gc[@]}"} $SPARK_JAVA_OPENS \
    -Dlog4j2.configurationFile="$FERRY_HOME/conf/log4j2.properties" -Dferry.log.file="$(ferry_log_file)" \
    ${FERRY_DEBUG:+-Dferry.log.console=warn} \
    -Dferry.s3proxy.jar="$FERRY_HOME/target/s3proxy/s3proxy.jar" \
    -cp "$FERRY_HOME/target/ferry-classes.jar:$(ferry_dependencies)${FERRY_EXTRA_CLASSPATH:+:$FERRY_EXTRA_CLASSPATH}" \
    "$main" "$@"
}
