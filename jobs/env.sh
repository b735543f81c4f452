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

# Builds the jar and the local classpath once (or again when sources changed).
ferry_build() {
  local jar
  jar="$FERRY_HOME/target/ferry.jar"
  if [ ! -f "$jar" ] || [ ! -f "$FERRY_HOME/target/local-classpath.txt" ] || \
     [ -n "$(find "$FERRY_HOME/src/main" "$FERRY_HOME/pom.xml" -newer "$jar" -print -quit)" ]; then
    echo "Building Ferry (mvn -DskipTests package) ..." >&2
    (cd "$FERRY_HOME" && mvn -B -q -DskipTests package) || return 1
  fi
}

# Runs a main class on the local classpath (Spark from Maven, local mode).
ferry_java() {
  local main="$1"; shift
  export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
  # shellcheck disable=SC2086
  exec java ${FERRY_DRIVER_OPTS:--Xmx4g} $SPARK_JAVA_OPENS \
    -Dlog4j2.configurationFile="$FERRY_HOME/conf/log4j2.properties" \
    -Dferry.s3proxy.jar="$FERRY_HOME/target/s3proxy/s3proxy.jar" \
    -cp "$FERRY_HOME/target/classes:$(cat "$FERRY_HOME/target/local-classpath.txt")" "$main" "$@"
}
