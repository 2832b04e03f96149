#!/usr/bin/env bash
# Runs the INC scale benchmark (see IncScaleBenchmark's Javadoc):
#   [--hosts N] [--iterations N] [--no-warmup] [all | case ...]
# Build first: mvn -B -q -DskipTests package. FABEMU_TARGET names another build folder (default target);
# FABEMU_BENCH_JAVA_OPTS adds JVM options (default heap: -Xmx16g).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
target="${FABEMU_TARGET:-target}"
jar="$root/load-tests/$target/fabemu-load-tests-0.1.0-SNAPSHOT.jar"
[ -f "$jar" ] || { echo "run-inc-benchmark: not built yet: run 'mvn -B -q -DskipTests package' first" >&2; exit 2; }
exec java -Xmx16g --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn ${FABEMU_BENCH_JAVA_OPTS:-} \
  -cp "$jar:$root/load-tests/$target/lib/*" io.fabemu.loadtests.IncScaleBenchmark "$@"
