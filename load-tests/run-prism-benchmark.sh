#!/usr/bin/env bash
# Runs the embedded-ring benchmark (see PrismRingsBenchmark's Javadoc; docs/performance.md, "Embedded
# rings on the prism"): SCENARIO [KEY=VALUE ...], e.g.
#   load-tests/run-prism-benchmark.sh load-tests/prism/prism-rings-bench.conf
#   load-tests/run-prism-benchmark.sh load-tests/prism/prism-6x64-bench.conf
# Exit status 1 when the target check fails. Build first: mvn -B -q -DskipTests package. FABEMU_BENCH_JAVA_OPTS
# adds JVM options (default heap: -Xmx18g; 256 MiB of real data on 24 ranks holds about 14 GiB at its peak).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/load-tests/target/fabemu-load-tests-0.1.0-SNAPSHOT.jar"
[ -f "$jar" ] || { echo "run-prism-benchmark: not built yet: run 'mvn -B -q -DskipTests package' first" >&2; exit 2; }
exec java -Xmx18g --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn ${FABEMU_BENCH_JAVA_OPTS:-} \
  -cp "$jar:$root/load-tests/target/lib/*" io.fabemu.loadtests.PrismRingsBenchmark "$@"
