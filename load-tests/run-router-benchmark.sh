#!/usr/bin/env bash
# Runs the router-network benchmark (see RouterNetworkBenchmark's Javadoc). Build first: mvn -B -q -DskipTests package
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/load-tests/target/fabemu-load-tests-0.1.0-SNAPSHOT.jar"
[ -f "$jar" ] || { echo "run-router-benchmark: not built yet: run 'mvn -B -q -DskipTests package' first" >&2; exit 2; }
exec java --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn ${FABEMU_BENCH_JAVA_OPTS:-} \
  -cp "$jar:$root/load-tests/target/lib/*" io.fabemu.loadtests.RouterNetworkBenchmark "$@"
