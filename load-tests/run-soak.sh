#!/usr/bin/env bash
# Soak run (see SoakRun's Javadoc and docs/faults.md, "Soak"): consecutive runs of a faulted scenario on
# 3 members (2 `fabemu member` JVMs on 127.0.0.1 and the coordinator, all living through the whole soak) until
# FABEMU_SOAK_CASES cases have run (default 1000), every run's digest checked against the one-member run's, and
# the heap after a full GC of every JVM sampled after every run; fails (exit 1) when a heap grows by more than
# FABEMU_SOAK_MAX_GROWTH_MIB (default 8) after the second run. Not part of `mvn test`.
#
# Usage: load-tests/run-soak.sh [SCENARIO]     (default load-tests/faults/soak-leafspine.conf)
# Build first: mvn -B -q -DskipTests package. Needs jcmd and jstat (the JDK's). Uses 127.0.0.1 only.
# Environment: FABEMU_SOAK_CASES, FABEMU_SOAK_MAX_GROWTH_MIB, FABEMU_SOAK_JAVA_OPTS (the coordinator's JVM),
# FABEMU_SOAK_MEMBER_JAVA_OPTS (the member JVMs').
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/load-tests/target/fabemu-load-tests-0.1.0-SNAPSHOT.jar"
[ -f "$jar" ] || { echo "run-soak: not built yet: run 'mvn -B -q -DskipTests package' first" >&2; exit 2; }
scenario="${1:-$root/load-tests/faults/soak-leafspine.conf}"
work="$(mktemp -d "${TMPDIR:-/tmp}/fabemu-soak.XXXXXX")"
trap 'rm -rf "$work"' EXIT
java --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn ${FABEMU_SOAK_JAVA_OPTS:-} \
  -cp "$jar:$root/load-tests/target/lib/*" io.fabemu.loadtests.SoakRun "$scenario" "${FABEMU_SOAK_CASES:-1000}" \
  "${FABEMU_SOAK_MAX_GROWTH_MIB:-8}" "$work"
