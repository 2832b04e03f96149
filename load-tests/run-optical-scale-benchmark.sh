#!/usr/bin/env bash
# Runs the optical cluster at scale (see OpticalScaleBenchmark's Javadoc;
# docs/performance.md, "The optical cluster"): SCENARIO [KEY=VALUE ...], e.g.
#   load-tests/run-optical-scale-benchmark.sh load-tests/optical/optical-64x64-allreduce.conf
#   load-tests/run-optical-scale-benchmark.sh load-tests/optical/optical-8x512-pipeline.conf
# Exit status 1 when the run did not complete. Build first: mvn -B -q -DskipTests package. FABEMU_BENCH_JAVA_OPTS
# adds JVM options (default heap: -Xmx18g).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/load-tests/target/fabemu-load-tests-0.1.0-SNAPSHOT.jar"
if [ ! -f "$jar" ]; then
  echo "run-optical-scale-benchmark: not built yet: run 'mvn -B -q -DskipTests package' first" >&2
  exit 2
fi
exec java -Xmx18g --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn ${FABEMU_BENCH_JAVA_OPTS:-} \
  -cp "$jar:$root/load-tests/target/lib/*" io.fabemu.loadtests.OpticalScaleBenchmark "$@"
