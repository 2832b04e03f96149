#!/usr/bin/env bash
# Compares profiles/roce25g-tor-spine-fpga.conf with the paper's 4-node osu_allreduce table (check), or fits the
# profile's delays to it (fit [ROUNDS]). See docs/calibration.md. Build first: mvn -B -q -DskipTests package
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
target="${FABEMU_TARGET:-target}"
jar="$root/load-tests/$target/fabemu-load-tests-0.1.0-SNAPSHOT.jar"
[ -f "$jar" ] || { echo "run-calibration: not built yet: run 'mvn -B -q -DskipTests package' first" >&2; exit 2; }
mode="${1:-check}"
shift || true
profile="${FABEMU_PROFILE:-$root/profiles/roce25g-tor-spine-fpga.conf}"
reference="${FABEMU_REFERENCE:-$root/reference/inc-allreduce-4nodes.csv}"
exec java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn ${FABEMU_BENCH_JAVA_OPTS:-} \
  -cp "$jar:$root/load-tests/$target/lib/*" io.fabemu.loadtests.Calibration "$mode" "$profile" "$reference" "$@"
