#!/usr/bin/env bash
# Parallel-speed benchmark: each case on 1 member with 1 core, 1 member with all cores, and N members on
# disjoint cores, back to back, each run a fresh `bin/fabemu run FILE --no-progress [--members N --transport tcp]`
# bounded by a timeout. Prints one Markdown table per run of the script: the emulation's wall time (from the run's
# own summary line, `# Run: ... (wall S s)`, the median over FABEMU_PAR_REPEATS runs, with their range), the
# speed-up over 1 member on 1 core, the rounds (the summary's windows: on N members the global windows, the
# synchronization rounds between members), the cross-member events (the sum of the members' "# member M: ...
# C cross-member events sent" lines; "—" on one member), the CPU seconds of the whole process tree (user + sys of the coordinator JVM
# and every member JVM, from /usr/bin/time: the JVMs reap their children, so their time is counted), the peak RSS of
# each JVM (VmHWM from /proc/PID/status, read every 0.5 s while it runs: the coordinator's JVM first, then member 2,
# 3, ...), and whether every run's digest equals the case's first run's. Exits 1 when a digest differs or a run
# failed (no digest to compare), 2 on bad input.
#
# Configurations:
#   FABEMU_PAR_CORES    (default "1 all"): one member per item; "1" = 1 core: `taskset -c C0` and
#                       -XX:ActiveProcessorCount=1; a number k = the first k of this script's CPUs, with
#                       -XX:ActiveProcessorCount=k; "all" = every CPU, no pinning. Speed-ups are against "1".
#   FABEMU_PAR_MEMBERS  (default "2"): N members per item (N >= 2). The CPUs this script may use (its affinity list)
#                       are cut into N disjoint sets of floor(CPUs / N): the coordinator's JVM (member 1) starts
#                       under `taskset -c SET1`, and member JVM i under `taskset -c SETi`, through the CLI's
#                       FABEMU_MEMBER_CPUS (LocalMembers starts each member JVM as `taskset -c LIST java ...`, so
#                       it is pinned from its first instruction). Each JVM counts its set's k CPUs by itself (on
#                       Linux availableProcessors follows the affinity mask), so no -XX:ActiveProcessorCount is
#                       given: with it (=1), 4 of 7 two-member runs on 2 cores lost a member to heartbeat
#                       starvation (heartbeats 20-67 s late) on 2026-12-02, none of 7 without it. With k < 2 every JVM
#                       gets the small-machine options a local run picks on such a machine
#                       (-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:+UseSerialGC and a 60 s acceptable
#                       heartbeat pause, unless FABEMU_JAVA_OPTS, JAVA_TOOL_OPTIONS or JDK_JAVA_OPTIONS choose a
#                       compiler, collector or pause), passed to the members
#                       with FABEMU_MEMBER_JAVA_OPTS (after the user's own value of it). N larger than the CPUs is
#                       skipped with a note (the sets could not be disjoint). The same script, unchanged, takes
#                       FABEMU_PAR_CORES="1 2 4 8 16" FABEMU_PAR_MEMBERS="2 4 8 16" on a 16-core machine.
#   FABEMU_PAR_REPEATS  (default 3) runs per configuration, FABEMU_PAR_TIMEOUT (seconds per run, default 1800),
#   FABEMU_PAR_RUN_ARGS extra arguments of every run (e.g. --skip-estimate), FABEMU_JAVA_OPTS (every JVM's heap:
#                       -Xmx is passed on to the members), FABEMU_MEMBER_JAVA_OPTS (the members' own, e.g. -Xmx4g).
#
# Usage: load-tests/run-parallel-benchmark.sh [case ...]     (build first: mvn -B -q -DskipTests package)
# Cases (default: the five large ones of docs/performance.md, in this order):
#   rd-4096x8B              leaf-spine 4,096 hosts, 32 per TOR, 16 spines, recursive-doubling Allreduce 8 B, 5
#                           iterations + 1 warm-up (ScaleBenchmark's rd-4096x8B)
#   ring-1024x1MiB          leaf-spine 1,024 hosts, 32 per TOR, 8 spines, ring Allreduce 1 MiB, real data, 1 iteration
#   torus-allreduce         examples/torus-allreduce.conf (4x4x4 torus, three algorithms, 1 KiB to 64 KiB)
#   torus16-dimension-ring  16x16x16 torus, dimension-ring Allreduce 1 MiB float32, 256 B flits, 4 KiB segments, 1
#                           iteration, sizes only (RouterNetworkBenchmark's torus16-dimension-ring)
#   ring-4096x1MiB          leaf-spine 4,096 hosts, 32 per TOR, 16 spines, ring Allreduce 1 MiB, real data, 1
#                           iteration (load-tests/parallel/ring-4096x1MiB.conf): 15.6 GiB of RSS on one JVM (the
#                           estimate says 26 GiB), so give the one-member runs FABEMU_JAVA_OPTS=-Xmx20g
#                           FABEMU_PAR_RUN_ARGS=--skip-estimate; 4 members fit -Xmx4g each (docs/cluster.md)
#   tiny                    leaf-spine 64 hosts, 8 per TOR (up to 8 members), 2 spines, ring Allreduce 64 KiB, real
#                           data, 1 iteration: seconds per run, to check the script itself
# Uses 127.0.0.1 only (tcp transport). After every run it checks that no member JVM of that run is left (killing
# leftovers by pid) and that no /dev/shm/fabemu-aeron-<pid>-* folder of its JVMs is left (removing leftovers).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=member-leftovers.sh
. "$root/load-tests/member-leftovers.sh"
fabemu="$root/bin/fabemu"
me=run-parallel-benchmark
[ -f "$root/app/target/fabemu.jar" ] || {
  echo "$me: not built yet: run 'mvn -B -q -DskipTests package' first" >&2; exit 2; }
command -v taskset >/dev/null || { echo "$me: taskset (util-linux) is needed to pin runs to cores" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "$me: /usr/bin/time (GNU time) is needed for the CPU seconds" >&2; exit 2; }

core_configs="${FABEMU_PAR_CORES:-1 all}"
member_configs="${FABEMU_PAR_MEMBERS:-2}"
repeats="${FABEMU_PAR_REPEATS:-3}"
limit="${FABEMU_PAR_TIMEOUT:-1800}"
read -r -a run_args <<<"${FABEMU_PAR_RUN_ARGS:-}"
known="rd-4096x8B ring-1024x1MiB torus-allreduce torus16-dimension-ring ring-4096x1MiB tiny"
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(rd-4096x8B ring-1024x1MiB torus-allreduce torus16-dimension-ring ring-4096x1MiB)

# The CPUs this script may run on, from its affinity list ("0-3,8,10-11").
cpus=()
IFS=, read -r -a ranges <<<"$(taskset -c -p $$ | sed 's/.*: *//')"
for r in "${ranges[@]}"; do
  if [[ "$r" == *-* ]]; then for ((c = ${r%-*}; c <= ${r#*-}; c++)); do cpus+=("$c"); done; else cpus+=("$r"); fi
done
ncpu=${#cpus[@]}
cpu_list() {  # $2 CPUs from index $1 of this script's CPUs, as a taskset list
  local from="$1" count="$2" out="" i
  for ((i = from; i < from + count; i++)); do out="$out,${cpus[i]}"; done
  echo "${out#,}"
}

for c in "${cases[@]}"; do
  case " $known " in *" $c "*) ;; *) echo "$me: unknown case $c (known: $known)" >&2; exit 2 ;; esac
done
for k in $core_configs; do
  [ "$k" = all ] || { [[ "$k" =~ ^[1-9][0-9]{0,4}$ ]] && [ "$k" -le "$ncpu" ]; } || {
    echo "$me: FABEMU_PAR_CORES: '$k' is neither 'all' nor a core count from 1 to $ncpu (this script's CPUs)" >&2
    exit 2; }
done
for n in $member_configs; do
  [[ "$n" =~ ^[1-9][0-9]{0,4}$ ]] && [ "$n" -ge 2 ] || {
    echo "$me: FABEMU_PAR_MEMBERS: '$n' is not a member count of at least 2" >&2; exit 2; }
done
[[ "$repeats" =~ ^[1-9][0-9]{0,2}$ ]] || {
  echo "$me: FABEMU_PAR_REPEATS: '$repeats' is not a count from 1" >&2; exit 2; }
[[ "$limit" =~ ^[1-9][0-9]{0,5}$ ]] || {
  echo "$me: FABEMU_PAR_TIMEOUT: '$limit' is not a number of seconds" >&2; exit 2; }

# The options a local run of JVMs with fewer than 2 cores each gets (LocalMembers.SMALL_MACHINE_OPTIONS and bin/fabemu's
# heartbeat pause), less the parts the user chose.
small_opts() {
  local user="${FABEMU_JAVA_OPTS:-} ${JAVA_TOOL_OPTIONS:-} ${JDK_JAVA_OPTIONS:-}" o=""
  [[ "$user" =~ -XX:(TieredStopAtLevel|[+-]TieredCompilation|CICompilerCount) ]] ||
    o="-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1"
  [[ "$user" =~ -XX:[+-]Use[A-Za-z0-9]*GC ]] || o="$o -XX:+UseSerialGC"
  [[ "$user" =~ cluster\.failure-detector\.acceptable-heartbeat-pause ]] ||
    o="$o -Dpekko.cluster.failure-detector.acceptable-heartbeat-pause=60s"
  echo "$o"
}

work="$(mktemp -d "${TMPDIR:-/tmp}/fabemu-par-bench.XXXXXX")"
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
    rd-4096x8B) cat <<'EOF'
name = rd-4096x8B
topology { kind = leaf-spine, hosts = 4096, hosts-per-tor = 32, spines = 16 }
workload { collective = allreduce, algorithms = [recursive-doubling], sizes = [8 B], iterations = 5, warmup = 1 }
EOF
    ;;
    ring-1024x1MiB) cat <<'EOF'
name = ring-1024x1MiB
topology { kind = leaf-spine, hosts = 1024, hosts-per-tor = 32, spines = 8 }
workload { collective = allreduce, algorithms = [ring], sizes = [1 MiB], iterations = 1, warmup = 0, payload = real }
EOF
    ;;
    torus-allreduce) cat "$root/examples/torus-allreduce.conf" ;;
    torus16-dimension-ring) cat <<'EOF'
name = torus16-dimension-ring
seed = 1
topology { kind = torus, dimensions = [16, 16, 16] }
devices.nic.segment-size = 4 KiB
devices.router { flit-bytes = 256 B }
workload {
  collective = allreduce, algorithms = [dimension-ring], sizes = [1 MiB], datatype = float32
  iterations = 1, warmup = 0, payload = synthetic
}
EOF
    ;;
    ring-4096x1MiB) cat "$root/load-tests/parallel/ring-4096x1MiB.conf" ;;  # docs/cluster.md runs it too
    tiny) cat <<'EOF'
name = tiny
topology { kind = leaf-spine, hosts = 64, hosts-per-tor = 8, spines = 2 }
workload { collective = allreduce, algorithms = [ring], sizes = [64 KiB], iterations = 1, warmup = 0, payload = real }
EOF
    ;;
  esac
}

# Member JVMs started by coordinator JVM $1 (they carry --parent-pid $1).
members_of() { pgrep -f "io\.fabemu\.app\.Main member .*--parent-pid $1\$" || true; }

# Sets hwm_kb to the peak resident set (VmHWM, kB) of process $1, leaving it as it was when the process is gone.
read_hwm() {
  local key value rest
  [ -r "/proc/$1/status" ] || return 0
  while read -r key value rest; do
    [ "$key" = "VmHWM:" ] && { hwm_kb="$value"; return 0; }
  done <"/proc/$1/status" 2>/dev/null || true
}

# One run. $1 scenario file, $2 "cores K|all" or "members N". Prints
# "wall windows cross digest cpuSeconds rssMiB/rssMiB/..." or "FAIL <reason>".
run_one() {
  local file="$1" kind="$2" arg="$3" out="$work/out.txt" err="$work/err.txt" times="$work/time.txt"
  local args=(run "$file" --no-progress) opts="${FABEMU_JAVA_OPTS:-}" member_opts="" pin=() member_cpus=""
  if [ "$kind" = cores ]; then
    if [ "$arg" != all ]; then
      pin=(taskset -c "$(cpu_list 0 "$arg")"); opts="$opts -XX:ActiveProcessorCount=$arg"
    fi
  else
    local k=$((ncpu / arg)) m
    pin=(taskset -c "$(cpu_list 0 "$k")")
    for ((m = 1; m < arg; m++)); do member_cpus="$member_cpus $(cpu_list $((m * k)) "$k")"; done
    [ "$k" -ge 2 ] || member_opts="$(small_opts)"
    opts="$opts $member_opts"
    args+=(--members "$arg" --transport tcp)
  fi
  args+=(${run_args[@]+"${run_args[@]}"})
  local rc=0 cpid="" seen="" jvms="" p
  declare -A hwm=()
  if [ "$kind" = cores ]; then
    FABEMU_JAVA_OPTS="$opts" /usr/bin/time -f '%U %S' -o "$times" \
      timeout -k 10 "$limit" ${pin[@]+"${pin[@]}"} "$fabemu" "${args[@]}" </dev/null >"$out" 2>"$err" &
  else
    FABEMU_JAVA_OPTS="$opts" FABEMU_MEMBER_JAVA_OPTS="${FABEMU_MEMBER_JAVA_OPTS:-} $member_opts" \
      FABEMU_MEMBER_CPUS="${member_cpus# }" /usr/bin/time -f '%U %S' -o "$times" \
      timeout -k 10 "$limit" "${pin[@]}" "$fabemu" "${args[@]}" </dev/null >"$out" 2>"$err" &
  fi
  current_tpid=$!
  # The coordinator's JVM runs `io.fabemu.app.Main run FILE` (bin/fabemu execs java, or runs it as its child while it
  # writes the class-data archive); remember it and every member JVM it starts, and their peak RSS.
  while kill -0 "$current_tpid" 2>/dev/null; do
    [ -n "$cpid" ] || { cpid="$(pgrep -f "io\.fabemu\.app\.Main run $file" | head -1 || true)"; jvms="$cpid"; }
    if [ -n "$cpid" ] && [ "$kind" = members ] && [ "$(echo $seen | wc -w)" -lt $((arg - 1)) ]; then
      for p in $(members_of "$cpid"); do
        case " $seen " in *" $p "*) ;; *) seen="$seen $p"; jvms="$jvms $p" ;; esac
      done
    fi
    for p in $jvms; do hwm_kb="${hwm[$p]:-0}"; read_hwm "$p"; hwm[$p]="$hwm_kb"; done
    sleep 0.5
  done
  wait "$current_tpid" || rc=$?
  current_tpid=""
  reap_members "$me" "$cpid" "$seen"
  local line
  line="$(grep '^# Run:' "$out" | tail -1 || true)"
  if [ "$rc" -ne 0 ] || [ -z "$line" ]; then
    echo "FAIL exit-$rc"
    { echo "--- run failed (exit $rc): ${pin[*]:-} fabemu ${args[*]}"; tail -5 "$out"; grep -v '^\s' "$err" | tail -8
    } >&2
    return 0
  fi
  # "# Run: virtual end X, W windows, E events, R events/s (wall S s), digest D"; after a run on several members,
  # one "# member M: D devices, C cross-member events sent (B)" line per member on stderr
  local windows wall digest cross cpu rss=""
  windows="$(sed -E 's/.* ([0-9]+) windows,.*/\1/' <<<"$line")"
  wall="$(sed -E 's/.*\(wall ([0-9.]+) s\).*/\1/' <<<"$line")"
  digest="$(sed -E 's/.*digest ([0-9a-f]+).*/\1/' <<<"$line")"
  cross="$(cat "$out" "$err" | grep -E '^# member [0-9]+: ' | grep -oE '[0-9]+ cross-member events' \
    | awk '{ s += $1; n++ } END { if (n) print s }' || true)"
  cpu="$(awk 'NF == 2 && $1 ~ /^[0-9.]+$/ { printf "%.1f", $1 + $2 }' "$times")"
  for p in $jvms; do rss="$rss/$((${hwm[$p]:-0} / 1024))"; done
  echo "$wall $windows ${cross:--} $digest ${cpu:--} ${rss#/}"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
range() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print (lo == hi) ? lo : lo "–" hi }'; }

echo "UTC $(date -u '+%Y-%m-%d %H:%M'), $ncpu CPUs ($(taskset -c -p $$ | sed 's/.*: *//')), load average before:" \
  "$(cut -d' ' -f1-3 /proc/loadavg), repeats $repeats, timeout ${limit} s per run" \
  "${FABEMU_JAVA_OPTS:+, FABEMU_JAVA_OPTS=$FABEMU_JAVA_OPTS}" \
  "${FABEMU_MEMBER_JAVA_OPTS:+, FABEMU_MEMBER_JAVA_OPTS=$FABEMU_MEMBER_JAVA_OPTS}"
others="$(pgrep -f 'io\.fabemu\.|surefire|plexus-classworlds' || true)"
[ -z "$others" ] ||
  echo "warning: other fabemu or Maven JVMs are running (pids $(echo $others)); wall times will suffer"
echo
echo "| case | config | emulation wall s (median, range) | speed-up vs 1 member 1 core | rounds | cross-member events" \
  "| CPU s | peak RSS MiB (coordinator/members) | digest | same digest |"
echo "|---|---|---|---|---|---|---|---|---|---|"

status=0
for c in "${cases[@]}"; do
  file="$work/$c.conf"
  scenario "$c" >"$file"
  configs=()
  for k in $core_configs; do configs+=("cores $k"); done
  for n in $member_configs; do configs+=("members $n"); done
  wall1="" reference=""
  for cfg in "${configs[@]}"; do
    read -r kind arg <<<"$cfg"
    if [ "$kind" = cores ]; then
      case "$arg" in 1) label="1 member, 1 core" ;; all) label="1 member, all $ncpu cores" ;;
        *) label="1 member, $arg cores" ;; esac
    else
      label="$arg members × $((ncpu / arg)) core(s)"
      if [ "$arg" -gt "$ncpu" ]; then
        echo "| $c | $arg members | skipped: $arg members need $arg CPUs for disjoint sets, this script has" \
          "$ncpu | | | | | | | |"
        continue
      fi
    fi
    : >"$work/walls"; : >"$work/cpus"; rounds=""; cross=""; rss=""; digests=""; fails=0
    for ((r = 0; r < repeats; r++)); do
      res="$(run_one "$file" "$kind" "$arg")"
      if [ "${res%% *}" = FAIL ]; then fails=$((fails + 1)); continue; fi
      read -r s w x d cpu mem <<<"$res"
      echo "$s" >>"$work/walls"; echo "$cpu" >>"$work/cpus"
      rounds=$w; cross=$x; rss=$mem; digests="$digests $d"
    done
    if [ -z "$digests" ]; then
      echo "| $c | $label | failed ($fails of $repeats) | | | | | | | |"
      status=1
      continue
    fi
    wall="$(median <"$work/walls")"
    [ "$kind $arg" = "cores 1" ] && wall1="$wall"
    speedup="—"
    [ -z "$wall1" ] || speedup="$(awk -v a="$wall1" -v b="$wall" 'BEGIN { if (b > 0) printf "%.2f", a / b }')"
    distinct="$(echo "$digests" | tr ' ' '\n' | sort -u | grep -c .)"
    digest="${digests# }"; digest="${digest%% *}"
    [ -n "$reference" ] || reference="$digest"
    if [ "$distinct" -ne 1 ]; then same="**NO** (differs between repeats)"; status=1
    elif [ "$digest" = "$reference" ]; then same="yes"
    else same="**NO**"; status=1
    fi
    wallrange="$(range <"$work/walls")"; [ "$repeats" -gt 1 ] && wallrange="$wall ($wallrange)"
    [ "$fails" -eq 0 ] || { wallrange="$wallrange, $fails failed"; status=1; }
    [ "$cross" != - ] || cross="—"
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$c" "$label" "$wallrange" "$speedup" "$rounds" \
      "$cross" "$(grep -v -- - "$work/cpus" | median)" "$rss" "${digest:0:16}" "$same"
  done
done

echo
left="$(pgrep -f 'io\.fabemu\.app\.Main member .*--host 127\.0\.0\.1 .*--parent-pid' || true)"
echo "after the runs: local member JVMs left (any user's): ${left:-none}; /dev/shm/fabemu-aeron-*:" \
  "$(ls -d /dev/shm/fabemu-aeron-* 2>/dev/null | wc -l)"
exit "$status"
