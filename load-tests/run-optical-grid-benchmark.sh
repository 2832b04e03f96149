#!/usr/bin/env bash
# Runs the transmission-method grid (see OpticalMethodGridBenchmark's Javadoc; docs/performance.md, "The
# optical cluster"): SCENARIO [--ratios=1,2,4,8,16] [--grids=mesh,p2p,switch] [KEY=VALUE ...], e.g.
#   load-tests/run-optical-grid-benchmark.sh load-tests/optical/optical-grid-bench.conf
#   load-tests/run-optical-grid-benchmark.sh load-tests/optical/optical-grid-bench.conf --grids=mesh
# Exit status 1 when the target check fails. Build first: mvn -B -q -DskipTests package. FABEMU_BENCH_JAVA_OPTS
# adds JVM options (default heap: -Xmx4g; the grid's scenario is 16 NPUs of at most 4 MiB activations).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/load-tests/target/fabemu-load-tests-0.1.0-SNAPSHOT.jar"
if [ ! -f "$jar" ]; then
  echo "run-optical-grid-benchmark: not built yet: run 'mvn -B -q -DskipTests package' first" >&2
  exit 2
fi
exec java -Xmx4g --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn ${FABEMU_BENCH_JAVA_OPTS:-} \
  -cp "$jar:$root/load-tests/target/lib/*" io.fabemu.loadtests.OpticalMethodGridBenchmark "$@"
