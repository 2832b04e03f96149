#!/usr/bin/env bash
# Runs the JMH micro-benchmarks (HotPathBenchmark). Build first: mvn -B -q -DskipTests package
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/load-tests/target/fabemu-load-tests-0.1.0-SNAPSHOT.jar"
[ -f "$jar" ] || { echo "run-jmh: not built yet: run 'mvn -B -q -DskipTests package' first" >&2; exit 2; }
exec java -cp "$jar:$root/load-tests/target/lib/*" org.openjdk.jmh.Main "$@"
