#!/usr/bin/env bash
# Distributed-mode benchmark: the same scenario on 1 member and on N local members (`bin/fabemu run FILE
# --members N --transport tcp|aeron-udp --no-progress`), each run a fresh CLI process bounded by a timeout.
# Prints one Markdown table: windows, events, wall time of the emulation and events/s (from the run's summary
# line), the ratio N-member/1-member, the mean wall cost of one window barrier estimated as
# (wall_N - wall_1) / windows, the whole process's wall time (JVM and member start-up, fabric build, shutdown),
# and whether the digest equals the 1-member run's. Figures are medians over FABEMU_DIST_REPEATS runs.
# Windows: on 1 member the plain lookahead windows; on N members the global windows (synchronization rounds
# between members, each the cross-member lookahead long, run as local sub-windows inside each member).
#
# Usage: load-tests/run-distributed-benchmark.sh [case ...]     (build first: mvn -B -q -DskipTests package)
# Cases (default: ring-256x1MiB ring-48x64KiB barrier-probe-50 barrier-probe-200):
#   ring-256x1MiB   256 hosts, 16 per TOR, 4 spines, ring Allreduce 1 MiB, 2 iterations, real data (7,209 windows
#                   on 1 member, 4,202 global windows on 3)
#   ring-48x64KiB   48 hosts, 16 per TOR (3 TORs), 3 spines, ring Allreduce 64 KiB, 1 iteration, real data
#                   (782 windows on 1 member, 309 global windows on 3: few rounds, so aeron-udp stays short)
#   barrier-probe-50, barrier-probe-200
#                   6 hosts, 2 per TOR (3 TORs), 1 spine, 4 B sendrecv between ranks 0 and 1, 50 or 200
#                   iterations: nearly empty windows (1,901 or 7,601 on 1 member), so the time is the window barrier
#                   itself.
#                   With both, a second table gives the marginal cost of one window,
#                   (wall_200 - wall_50) / (windows_200 - windows_50), free of JIT warm-up and start-up.
# Environment: FABEMU_DIST_MEMBERS (default 3), FABEMU_DIST_TRANSPORTS (default "tcp aeron-udp"; also
#   "aeron-udp:idleN", aeron-udp with -Dpekko.remote.artery.advanced.aeron.idle-cpu-level=N; plain aeron-udp runs at
#   fabemu.aeron.idle-cpu-level = auto, i.e. level 1 on machines with at most 4 cores, Pekko's default 5 above),
#   FABEMU_DIST_REPEATS (default 1), FABEMU_DIST_TIMEOUT (seconds per run, default 300), FABEMU_JAVA_OPTS (-D
#   options reach the member JVMs too), FABEMU_DIST_JVM_OPTS (set as JAVA_TOOL_OPTIONS, so every JVM of a run gets
#   them, members included), FABEMU_MEMBER_JAVA_OPTS (bin/fabemu's: set, even empty, it replaces the C1-only
#   choice a local run makes on machines with fewer than 2 cores per JVM; FABEMU_MEMBER_JAVA_OPTS= runs all on C2).
# Uses 127.0.0.1 only. After every run it checks that no member JVM of that run is left (killing leftovers by pid)
# and that no /dev/shm/fabemu-aeron-<pid>-* folder of its JVMs is left (removing leftovers); both are reported.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=member-leftovers.sh
. "$root/load-tests/member-leftovers.sh"
fabemu="$root/bin/fabemu"
[ -f "$root/app/target/fabemu.jar" ] || {
  echo "run-distributed-benchmark: not built yet: run 'mvn -B -q -DskipTests package' first" >&2; exit 2; }

members="${FABEMU_DIST_MEMBERS:-3}"
transports="${FABEMU_DIST_TRANSPORTS:-tcp aeron-udp}"
repeats="${FABEMU_DIST_REPEATS:-1}"
limit="${FABEMU_DIST_TIMEOUT:-300}"
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(ring-256x1MiB ring-48x64KiB barrier-probe-50 barrier-probe-200)
declare -A wall_of windows_of

work="$(mktemp -d "${TMPDIR:-/tmp}/fabemu-dist-bench.XXXXXX")"
current_tpid=""
cleanup() {
  if [ -n "$current_tpid" ] && kill -0 "$current_tpid" 2>/dev/null; then
    kill -TERM "$current_tpid" 2>/dev/null || true
    wait "$current_tpid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

scenario() {  # name -> scenario text
  case "$1" in
    ring-256x1MiB) cat <<'EOF'
name = ring-256x1MiB
topology { kind = leaf-spine, hosts = 256, hosts-per-tor = 16, spines = 4 }
workload { collective = allreduce, algorithms = [ring], sizes = [1 MiB], iterations = 2, warmup = 0, payload = real }
EOF
    ;;
    ring-48x64KiB) cat <<'EOF'
name = ring-48x64KiB
topology { kind = leaf-spine, hosts = 48, hosts-per-tor = 16, spines = 3 }
workload { collective = allreduce, algorithms = [ring], sizes = [64 KiB], iterations = 1, warmup = 0, payload = real }
EOF
    ;;
    barrier-probe-50|barrier-probe-200) cat <<EOF
name = $1
topology { kind = leaf-spine, hosts = 6, hosts-per-tor = 2, spines = 1 }
workload { collective = sendrecv, sizes = [4 B], iterations = ${1#barrier-probe-}, warmup = 0 }
EOF
    ;;
    *) echo "run-distributed-benchmark: unknown case $1 (known: ring-256x1MiB ring-48x64KiB barrier-probe-50 barrier-probe-200)" >&2
       return 2 ;;
  esac
}

# Member JVMs started by coordinator JVM $1 (they carry --parent-pid $1).
members_of() { pgrep -f "io\.fabemu\.app\.Main member .*--parent-pid $1\$" || true; }

# One run: prints "windows events wall eventsPerSec digest processWall" or "FAIL <reason>".
run_one() {
  local file="$1" n="$2" transport="$3" out="$work/out.txt" err="$work/err.txt"
  local args=(run "$file" --no-progress) opts="${FABEMU_JAVA_OPTS:-}"
  case "$transport" in  # aeron-udp:idleN: Artery's Aeron idle CPU level N (the coordinator passes it to members)
    *:idle*) opts="$opts -Dpekko.remote.artery.advanced.aeron.idle-cpu-level=${transport##*:idle}"
             transport="${transport%%:*}" ;;
  esac
  [ "$n" -gt 1 ] && args+=(--members "$n" --transport "$transport")
  local start end rc=0 cpid="" seen=""
  start=$(date +%s.%N)
  if [ -n "${FABEMU_DIST_JVM_OPTS:-}" ]; then
    JAVA_TOOL_OPTIONS="$FABEMU_DIST_JVM_OPTS" FABEMU_JAVA_OPTS="$opts" timeout -k 10 "$limit" "$fabemu" "${args[@]}" \
      >"$out" 2>"$err" &
  else
    FABEMU_JAVA_OPTS="$opts" timeout -k 10 "$limit" "$fabemu" "${args[@]}" >"$out" 2>"$err" &
  fi
  current_tpid=$!
  # bin/fabemu execs java, so the coordinator JVM is timeout's child; remember every member JVM it starts.
  while kill -0 "$current_tpid" 2>/dev/null; do
    [ -n "$cpid" ] || cpid="$(pgrep -P "$current_tpid" | head -1 || true)"
    if [ -n "$cpid" ]; then
      for p in $(members_of "$cpid"); do case " $seen " in *" $p "*) ;; *) seen="$seen $p" ;; esac; done
    fi
    sleep 0.2
  done
  wait "$current_tpid" || rc=$?
  current_tpid=""
  end=$(date +%s.%N)
  reap_members run-distributed-benchmark "$cpid" "$seen"
  local line
  line="$(grep '^# Run:' "$out" | tail -1 || true)"
  if [ "$rc" -ne 0 ] || [ -z "$line" ]; then
    echo "FAIL exit-$rc"
    { echo "--- run failed (exit $rc): fabemu ${args[*]}"; tail -5 "$out"; grep -v '^\s' "$err" | tail -8; } >&2
    return 0
  fi
  # "# Run: virtual end X, W windows, E events, R events/s (wall S s), digest D"
  echo "$line" | sed -E 's/.* ([0-9]+) windows, ([0-9]+) events, .*\(wall ([0-9.]+) s\), digest ([0-9a-f]+).*/\1 \2 \3 \4/' |
    awk -v pw="$(echo "$end - $start" | bc)" '{ printf "%s %s %s %.0f %s %.1f\n", $1, $2, $3, $2 / $3, $4, pw }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
range() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print (lo == hi) ? lo : lo "–" hi }'; }

echo "UTC $(date -u '+%Y-%m-%d %H:%M'), $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)," \
  "repeats $repeats, timeout ${limit} s per run${FABEMU_DIST_JVM_OPTS:+, JVM options: $FABEMU_DIST_JVM_OPTS}"
others="$(pgrep -f 'io\.fabemu\.|surefire|plexus-classworlds' || true)"
[ -z "$others" ] || echo "warning: other fabemu or Maven JVMs are running (pids $(echo $others)); wall times will suffer"
echo
echo "| case | members | transport | windows | events | wall (s) | events/s | N/1 wall | barrier (ms/global window) | process wall (s) | digest | same as 1 member |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"

for c in "${cases[@]}"; do
  file="$work/$c.conf"
  scenario "$c" >"$file"
  configs=("1 -")
  for t in $transports; do
    configs+=("$members $t")
  done
  wall1="" digest1=""
  for cfg in "${configs[@]}"; do
    read -r n t <<<"$cfg"
    : >"$work/walls"; : >"$work/pwalls"; : >"$work/rates"; windows=""; events=""; digest=""; fails=0; digests=""
    for ((r = 0; r < repeats; r++)); do
      res="$(run_one "$file" "$n" "$t")"
      if [ "${res%% *}" = FAIL ]; then fails=$((fails + 1)); continue; fi
      read -r w e s rate d pw <<<"$res"
      windows=$w; events=$e; digest=$d; digests="$digests $d"
      echo "$s" >>"$work/walls"; echo "$pw" >>"$work/pwalls"; echo "$rate" >>"$work/rates"
    done
    label="$t"; [ "$n" -eq 1 ] && label="(in-process)"
    if [ -z "$digest" ]; then
      echo "| $c | $n | $label | | | failed ($fails of $repeats) | | | | | | |"
      continue
    fi
    wall="$(median <"$work/walls")"
    wall_of["$c|$n|$t"]="$wall"; windows_of["$c|$n|$t"]="$windows"
    [ "$(echo "$digests" | tr ' ' '\n' | sort -u | grep -c .)" -eq 1 ] || digest="DIFFERS-BETWEEN-REPEATS"
    if [ "$n" -eq 1 ]; then
      wall1="$wall"; digest1="$digest"; ratio="1"; barrier=""; same="—"
    else
      ratio="$(awk -v a="$wall" -v b="$wall1" 'BEGIN { if (b > 0) printf "%.2f", a / b }')"
      barrier="$(awk -v a="$wall" -v b="$wall1" -v w="$windows" 'BEGIN { if (b != "") printf "%.3f", (a - b) * 1000 / w }')"
      if [ "$digest" = "$digest1" ]; then same="yes"; else same="**NO**"; fi
    fi
    wallrange="$(range <"$work/walls")"; [ "$repeats" -gt 1 ] && wallrange="$wall ($wallrange)"
    [ "$fails" -eq 0 ] || wallrange="$wallrange, $fails failed"
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$c" "$n" "$label" "$windows" "$events" \
      "$wallrange" "$(median <"$work/rates")" "$ratio" "$barrier" "$(median <"$work/pwalls")" "${digest:0:16}" "$same"
  done
done

if [ -n "${wall_of[barrier-probe-50|1|-]:-}" ] && [ -n "${wall_of[barrier-probe-200|1|-]:-}" ]; then
  echo
  echo "Marginal cost of one window, (wall_200 - wall_50) / (windows_200 - windows_50):"
  echo
  echo "| members | transport | ms per window | minus 1 member (ms): the barrier |"
  echo "|---|---|---|---|"
  one=""
  for key in "1|-" $(for t in $transports; do echo "$members|$t"; done); do
    a="${wall_of[barrier-probe-200|$key]:-}"; b="${wall_of[barrier-probe-50|$key]:-}"
    [ -n "$a" ] && [ -n "$b" ] || continue
    wa="${windows_of[barrier-probe-200|$key]}"; wb="${windows_of[barrier-probe-50|$key]}"
    ms="$(awk -v a="$a" -v b="$b" -v wa="$wa" -v wb="$wb" 'BEGIN { printf "%.3f", (a - b) * 1000 / (wa - wb) }')"
    [ -n "$one" ] || one="$ms"
    label="${key#*|}"; [ "$label" = - ] && label="(in-process)"
    printf '| %s | %s | %s | %s |\n' "${key%%|*}" "$label" "$ms" \
      "$(awk -v a="$ms" -v b="$one" 'BEGIN { printf "%.3f", a - b }')"
  done
fi

echo
left="$(pgrep -f 'io\.fabemu\.app\.Main member .*--host 127\.0\.0\.1 .*--parent-pid' || true)"
echo "after the runs: local member JVMs left: ${left:-none}; /dev/shm/fabemu-aeron-*: $(ls -d /dev/shm/fabemu-aeron-* 2>/dev/null | wc -l)"
