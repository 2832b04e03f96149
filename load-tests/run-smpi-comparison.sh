#!/usr/bin/env bash
# Side-by-side benchmark of fabemu against SimGrid's SMPI: the same fabric and the same work, run back to back.
#
# Usage: load-tests/run-smpi-comparison.sh [OPTIONS]
#   --ranks LIST            rank counts, comma-separated (default 256,1024,4096); one rank per host
#   --algorithms LIST       any of ring, rd, rab, comma-separated (default ring,rd,rab); long names work too:
#                           ring (SMPI lr), rd = recursive-doubling (SMPI rdb), rab = rabenseifner (SMPI rab_rdb)
#   --size BYTES            allreduce size per rank in bytes, a multiple of 4 (default 1048576 = 1 MiB)
#   --smpi-timeout SECONDS  wall-clock limit of one SMPI run (default 900); a run past it shows '>SECONDS' and the
#                           script goes on
#   --fabemu-timeout SECONDS  the same for one fabemu run (default 0: no limit)
#   --skip-smpi             run fabemu only (and do not install or build anything for SMPI)
#   --skip-synthetic        leave out fabemu's synthetic-payload run (sizes only, same timings, no data)
#   --out DIR               where to write (default results/smpi-comparison-<timestamp> under the repository root)
#   -h, --help              print this text
#
# The fabric: N hosts on one non-blocking switch, each host linked to it by a 25 Gb/s, 1 us full-duplex cable.
# The work: MPI_Allreduce of --size bytes of float32, sum, 1 warm-up call and 3 timed calls each after a barrier.
#   SMPI:   load-tests/smpi/allreduce_bench.c built with smpicc, on the platform of load-tests/smpi/make-platform.sh
#           (a SimGrid <cluster> without backbone whose host links are SPLITDUPLEX), network model CM02 with
#           latency and bandwidth factors of 1, no cross-traffic, no computation: a pure alpha-beta flow model.
#   fabemu: bin/fabemu run load-tests/smpi/allreduce-1switch.conf (the settings and the model differences that
#           remain are explained in that file), once with payload = real (every output checked) and once with
#           payload = synthetic.
# Each process is measured with /usr/bin/time -f '%e %M' (whole-process wall seconds, JVM start included, and peak
# RSS). fabemu runs as SMPI does, printing its tables and writing no files (no --out: no report, no plots); its
# latency is read from the osu_allreduce-style table on its stdout, and with real data the run must report every
# output element exact. Prints a markdown table and writes OUT/table.md, OUT/results.csv, OUT/logs/ (every
# process's stdout and stderr) and OUT/smpi/ (platforms, host files, the SMPI binary).
#   speed-up     = SMPI wall s / fabemu real wall s (above 1: fabemu was faster)
#   difference % = (fabemu simulated us - SMPI simulated us) / SMPI simulated us x 100, both the mean over ranks
#                  and timed calls of the allreduce's latency.
#
# Needs: the fabemu CLI built in app/target (this script builds no Java), GNU /usr/bin/time, and
# SimGrid's smpicc/smpirun: when smpicc is missing the script runs 'apt-get update' and
# 'apt-get install -y libsimgrid-dev' (as root).
# Environment: FABEMU_JAVA_OPTS is passed to fabemu's JVM (bin/fabemu); when unset this script sets it to
# '-XX:MaxRAMPercentage=75', since 4,096 ranks x 1 MiB with real data needs a large heap (8 GiB of inputs and
# outputs alone). Set it (even to '') to choose yourself. The fabemu runs pass --skip-estimate: the pre-flight
# estimate (26 GiB at 4,096 ranks with real data) errs high and would run sizes only under that heap (16.8 GiB of RSS
# measured); a real run that still says it ran sizes only fails its cell.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
smpi_dir="$root/load-tests/smpi"
conf="$smpi_dir/allreduce-1switch.conf"
timed_calls=3

usage() {
  sed -n '2,/^set -euo pipefail$/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'
}

die() {  # one-line error, exit 2
  echo "run-smpi-comparison: $*" >&2
  exit 2
}

# ---- arguments ----
ranks_list="256,1024,4096"
algorithms_list="ring,rd,rab"
size=1048576
smpi_timeout=900
fabemu_timeout=0
skip_smpi=no
skip_synthetic=no
out=""

need_value() {  # OPTION REMAINING-ARGUMENT-COUNT
  [ "$2" -ge 2 ] || die "$1 needs a value (see --help)"
}

while [ "$#" -gt 0 ]; do
  case "$1" in
    --ranks) need_value "$1" "$#"; ranks_list="$2"; shift 2 ;;
    --ranks=*) ranks_list="${1#*=}"; shift ;;
    --algorithms) need_value "$1" "$#"; algorithms_list="$2"; shift 2 ;;
    --algorithms=*) algorithms_list="${1#*=}"; shift ;;
    --size) need_value "$1" "$#"; size="$2"; shift 2 ;;
    --size=*) size="${1#*=}"; shift ;;
    --smpi-timeout) need_value "$1" "$#"; smpi_timeout="$2"; shift 2 ;;
    --smpi-timeout=*) smpi_timeout="${1#*=}"; shift ;;
    --fabemu-timeout) need_value "$1" "$#"; fabemu_timeout="$2"; shift 2 ;;
    --fabemu-timeout=*) fabemu_timeout="${1#*=}"; shift ;;
    --skip-smpi) skip_smpi=yes; shift ;;
    --skip-synthetic) skip_synthetic=yes; shift ;;
    --out) need_value "$1" "$#"; out="$2"; shift 2 ;;
    --out=*) out="${1#*=}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done

ranks=()
IFS=',' read -r -a raw_ranks <<< "$ranks_list"
for r in "${raw_ranks[@]}"; do
  [[ "$r" =~ ^[1-9][0-9]{0,6}$ ]] && [ "$r" -ge 2 ] && [ "$r" -le 1048576 ] \
    || die "--ranks: '$r' is not a rank count from 2 to 1048576"
  ranks+=("$r")
done
[ "${#ranks[@]}" -gt 0 ] || die "--ranks: no rank count given"

# Algorithm keys: ring, rd, rab. fabemu_alg and smpi_alg map them to each tool's name.
algorithms=()
IFS=',' read -r -a raw_algorithms <<< "$algorithms_list"
for a in "${raw_algorithms[@]}"; do
  case "$a" in
    ring|lr) key=ring ;;
    rd|rdb|recursive-doubling) key=rd ;;
    rab|rab_rdb|rabenseifner) key=rab ;;
    *) die "--algorithms: '$a' is not one of ring, rd, rab" ;;
  esac
  algorithms+=("$key")
done
[ "${#algorithms[@]}" -gt 0 ] || die "--algorithms: no algorithm given"

fabemu_alg() {
  case "$1" in ring) echo ring ;; rd) echo recursive-doubling ;; rab) echo rabenseifner ;; esac
}
smpi_alg() {  # SMPI 3.32's names (smpirun ... --cfg=smpi/allreduce:NAME lists them when NAME is unknown)
  case "$1" in ring) echo lr ;; rd) echo rdb ;; rab) echo rab_rdb ;; esac
}

[[ "$size" =~ ^[1-9][0-9]{0,9}$ ]] && [ $((size % 4)) -eq 0 ] && [ "$size" -le 1073741824 ] \
  || die "--size: '$size' is not a positive multiple of 4 bytes up to 1 GiB"
[[ "$smpi_timeout" =~ ^[1-9][0-9]{0,6}$ ]] || die "--smpi-timeout: '$smpi_timeout' is not a positive whole number"
[[ "$fabemu_timeout" =~ ^[0-9]{1,7}$ ]] || die "--fabemu-timeout: '$fabemu_timeout' is not a whole number"

# ---- tools ----
[ -x /usr/bin/time ] || die "GNU time (/usr/bin/time) is missing: apt-get install -y time"
[ -f "$root/app/target/fabemu.jar" ] || die "fabemu is not built: run 'mvn -B -q -DskipTests package' first"

if [ "$skip_smpi" = no ] && ! command -v smpicc > /dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get > /dev/null 2>&1; then
    die "smpicc (SimGrid) is missing and cannot be installed here (needs root and apt-get): install libsimgrid-dev"
  fi
  echo "run-smpi-comparison: smpicc is missing: installing libsimgrid-dev" >&2
  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y libsimgrid-dev; } > /dev/null \
    || die "apt-get install -y libsimgrid-dev failed"
  command -v smpicc > /dev/null 2>&1 || die "libsimgrid-dev installed, but smpicc is still missing"
fi

export FABEMU_JAVA_OPTS="${FABEMU_JAVA_OPTS--XX:MaxRAMPercentage=75}"

# ---- output folder ----
[ -n "$out" ] || out="$root/results/smpi-comparison-$(date +%Y%m%d-%H%M%S)"
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  die "--out: '$out' exists and is not empty"
fi
mkdir -p "$out/logs" "$out/smpi" || die "--out: cannot create '$out'"
out="$(cd "$out" && pwd)"

# ---- SMPI options ----
# All checked against SimGrid 3.32 (smpimain PROGRAM --cfg-help; note 3.32 spells it --cfg-help, not --help-cfg):
#   smpi/privatization:no          no copy of the binary's globals per rank (the program has none that matter)
#   smpi/simulate-computation:no   code between MPI calls costs no simulated time (and is not benchmarked)
#   smpi/wtime:0                   MPI_Wtime injects no time of its own (3.32's default is 10 ns)
#   network/model:CM02             plain max-min flow model: latency, then size / bandwidth (smpirun's default is the
#                                  SMPI model with its piecewise smpi/lat-factor and smpi/bw-factor corrections)
#   network/latency-factor:1, network/bandwidth-factor:1   no correction of the platform's latency and bandwidth
#   network/crosstraffic:0         no reverse-direction (acknowledgement) flow on the other half of each link
#   smpi/reduce:binomial           the reduce used inside collectives and for the final MPI_Reduce of the results
#   smpi/allreduce:lr|rdb|rab_rdb  ring (reduce-scatter + allgather on a logical ring), recursive doubling,
#                                  Rabenseifner (recursive halving reduce-scatter + recursive doubling allgather)
#   --log=root.thres:critical      quiet: no configuration echo, no INFO lines
# smpi/os, smpi/or and smpi/ois stay at their default of 0 (no software overhead per message).
smpi_options=(
  --cfg=smpi/privatization:no
  --cfg=smpi/simulate-computation:no
  --cfg=smpi/wtime:0
  --cfg=network/model:CM02
  --cfg=network/latency-factor:1
  --cfg=network/bandwidth-factor:1
  --cfg=network/crosstraffic:0
  --cfg=smpi/reduce:binomial
  --log=root.thres:critical
)

smpi_bin="$out/smpi/allreduce_bench"
if [ "$skip_smpi" = no ]; then
  smpicc -O2 -o "$smpi_bin" "$smpi_dir/allreduce_bench.c" > "$out/logs/smpicc.log" 2>&1 \
    || die "smpicc failed to build allreduce_bench.c (see $out/logs/smpicc.log)"
fi

# ---- helpers ----
# measure NAME TIMEOUT COMMAND...: runs COMMAND under /usr/bin/time and timeout, its stdout and stderr in
# OUT/logs/NAME.out and .err; sets m_status (ok, timeout or failed), m_wall (seconds) and m_rss (KiB).
measure() {
  local name="$1" limit="$2"
  shift 2
  local timing="$out/logs/$name.time"
  local rc=0
  /usr/bin/time -f '%e %M' -o "$timing" timeout --kill-after=30 "$limit" "$@" \
    > "$out/logs/$name.out" 2> "$out/logs/$name.err" < /dev/null || rc=$?
  m_wall="" m_rss=""
  if [ -s "$timing" ]; then
    read -r m_wall m_rss < <(tail -n 1 "$timing")
  fi
  if [ "$rc" -eq 0 ]; then
    m_status=ok
  elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    m_status=timeout
    m_rss=""  # the killed processes were never waited for: time saw only the wrappers' memory
  else
    m_status=failed
    echo "run-smpi-comparison: $name exited with $rc (see $out/logs/$name.err)" >&2
  fi
}

# fabemu_latency LOG SIZE: the mean latency in us of the SIZE row of fabemu's osu_allreduce-style table in LOG
# (printed with two decimals), or nothing. fabemu runs without --out, as SMPI runs: tables on stdout, no files.
fabemu_latency() {
  [ -f "$1" ] || return 0
  awk -v size="$2" '/^# Size +Avg Latency/ {table = 1; next} table && $1 == size {print $2; exit}' "$1"
}

# wall_cell STATUS WALL LIMIT: the table's text for a wall time.
wall_cell() {
  case "$1" in
    ok) echo "$2" ;;
    timeout) echo ">$3" ;;
    skipped) echo "skipped" ;;
    *) echo "failed" ;;
  esac
}

rss_cell() {  # KiB -> MiB or GiB
  [ -n "$1" ] || { echo "-"; return; }
  awk -v k="$1" 'BEGIN { m = k / 1024; if (m >= 1024) printf "%.1f GiB", m / 1024; else printf "%.0f MiB", m }'
}

# ---- header ----
header="$(
  echo "# fabemu vs SimGrid SMPI: allreduce of $size B float32 sum, 1 switch, 25 Gb/s 1 us host links"
  echo
  echo "- date: $(date '+%Y-%m-%d %H:%M:%S %Z')"
  echo "- load: $(uptime | sed 's/.*load average/load average/')"
  echo "- nproc: $(nproc)"
  if [ "$skip_smpi" = no ]; then
    echo "- SMPI: $(smpirun -version 2>&1 | head -n 1), allreduce lr / rdb / rab_rdb, timeout ${smpi_timeout} s"
  fi
  echo "- fabemu: $conf, FABEMU_JAVA_OPTS='$FABEMU_JAVA_OPTS'"
  echo "- calls: 1 warm-up + $timed_calls timed, one rank per host; wall = whole process (JVM start included)"
)"
echo "$header"
echo

csv="$out/results.csv"
echo "ranks,algorithm,smpi_algorithm,size_bytes,smpi_status,smpi_wall_s,smpi_rss_kib,smpi_avg_us,\
fabemu_real_status,fabemu_real_wall_s,fabemu_real_rss_kib,fabemu_real_avg_us,\
fabemu_synthetic_status,fabemu_synthetic_wall_s,fabemu_synthetic_rss_kib,fabemu_synthetic_avg_us,\
speedup_real_vs_smpi,difference_percent" > "$csv"

table_rows=()

# ---- the grid ----
for n in "${ranks[@]}"; do
  if [ "$skip_smpi" = no ]; then
    platform="$out/smpi/platform-$n.xml"
    hostfile="$out/smpi/hosts-$n.txt"
    "$smpi_dir/make-platform.sh" "$n" "$platform" "$hostfile"
  fi
  for key in "${algorithms[@]}"; do
    falg="$(fabemu_alg "$key")"
    salg="$(smpi_alg "$key")"

    # SMPI
    s_status=skipped s_wall="" s_rss="" s_us=""
    if [ "$skip_smpi" = no ]; then
      echo "run-smpi-comparison: SMPI $salg, $n ranks ..." >&2
      measure "smpi-$n-$key" "$smpi_timeout" smpirun -np "$n" -platform "$platform" -hostfile "$hostfile" \
        "${smpi_options[@]}" "--cfg=smpi/allreduce:$salg" "$smpi_bin" "$size" "$timed_calls"
      s_status="$m_status" s_wall="$m_wall" s_rss="$m_rss"
      if [ "$s_status" = ok ]; then
        s_us="$(sed -n 's/^smpi-allreduce .*avg_us=\([0-9.]*\).*/\1/p' "$out/logs/smpi-$n-$key.out" | tail -n 1)"
        [ -n "$s_us" ] || { s_status=failed; echo "run-smpi-comparison: no result line from SMPI" >&2; }
      fi
    fi

    # fabemu, real then synthetic payload
    declare -A f_status=() f_wall=() f_rss=() f_us=()
    for payload in real synthetic; do
      f_status[$payload]=skipped f_wall[$payload]="" f_rss[$payload]="" f_us[$payload]=""
      [ "$payload" = synthetic ] && [ "$skip_synthetic" = yes ] && continue
      echo "run-smpi-comparison: fabemu $falg, $payload payload, $n ranks ..." >&2
      measure "fabemu-$payload-$n-$key" "$fabemu_timeout" "$root/bin/fabemu" run "$conf" --no-progress \
        --set "topology.hosts=$n" --set "topology.hosts-per-tor=$n" --set "workload.algorithms=[$falg]" \
        --set "workload.min-size=$size" --set "workload.max-size=$size" --set "workload.payload=$payload" \
        --skip-estimate
      f_status[$payload]="$m_status" f_wall[$payload]="$m_wall" f_rss[$payload]="$m_rss"
      log="$out/logs/fabemu-$payload-$n-$key.out"
      if [ "$m_status" = ok ]; then
        f_us[$payload]="$(fabemu_latency "$log" "$size")"
        [ -n "${f_us[$payload]}" ] || { f_status[$payload]=failed; echo "run-smpi-comparison: no latency in \
$log" >&2; }
        # Real data: every output element was checked against the exact answer; none may be wrong.
        if [ "$payload" = real ] && ! grep -q '^# Out of bounds values : 0 OK' "$log"; then
          f_status[$payload]=failed
          echo "run-smpi-comparison: fabemu's outputs were not all exact (see $log)" >&2
        fi
        # A real run that fell back to sizes only (its heap too small by the estimate) is no real run.
        if [ "$payload" = real ] && grep -q ': synthetic: ' "$out/logs/fabemu-$payload-$n-$key.err"; then
          f_status[$payload]=failed
          echo "run-smpi-comparison: fabemu ran sizes only, not real data (see" \
            "$out/logs/fabemu-$payload-$n-$key.err)" >&2
        fi
      fi
    done
    if [ -n "${f_us[real]}" ] && [ -n "${f_us[synthetic]}" ] && [ "${f_us[real]}" != "${f_us[synthetic]}" ]; then
      echo "run-smpi-comparison: fabemu real and synthetic latencies differ: ${f_us[real]} vs ${f_us[synthetic]}" >&2
    fi
    fab_us="${f_us[real]:-${f_us[synthetic]}}"

    # speed-up: SMPI wall / fabemu real wall; a lower bound when SMPI timed out
    speedup="" speedup_cell="-"
    if [ "${f_status[real]}" = ok ] && [ "$s_status" = ok ]; then
      speedup="$(awk -v s="$s_wall" -v f="${f_wall[real]}" 'BEGIN { if (f > 0) printf "%.2f", s / f }')"
      speedup_cell="${speedup}×"
    elif [ "${f_status[real]}" = ok ] && [ "$s_status" = timeout ]; then
      speedup_cell=">$(awk -v s="$smpi_timeout" -v f="${f_wall[real]}" 'BEGIN { if (f > 0) printf "%.2f", s / f }')×"
    fi

    difference="" difference_cell="-"
    if [ -n "$fab_us" ] && [ -n "$s_us" ]; then
      difference="$(awk -v f="$fab_us" -v s="$s_us" 'BEGIN { printf "%+.2f", (f - s) / s * 100 }')"
      difference_cell="$difference"
    fi
    case "$s_status" in
      ok) smpi_us_cell="$s_us" ;;
      timeout) smpi_us_cell="timeout" ;;
      *) smpi_us_cell="$s_status" ;;
    esac

    echo "$n,$falg,$salg,$size,$s_status,$s_wall,$s_rss,$s_us,\
${f_status[real]},${f_wall[real]},${f_rss[real]},${f_us[real]},\
${f_status[synthetic]},${f_wall[synthetic]},${f_rss[synthetic]},${f_us[synthetic]},$speedup,$difference" >> "$csv"

    table_rows+=("| $n | $falg | $(wall_cell "$s_status" "$s_wall" "$smpi_timeout") \
| $(wall_cell "${f_status[real]}" "${f_wall[real]}" "$fabemu_timeout") \
| $(wall_cell "${f_status[synthetic]}" "${f_wall[synthetic]}" "$fabemu_timeout") | $speedup_cell \
| $(rss_cell "${f_rss[real]}") | $(rss_cell "$s_rss") | ${fab_us:-${f_status[real]}} / $smpi_us_cell \
| $difference_cell |")
  done
done

# ---- table ----
table="$(
  echo "| ranks | algorithm | SMPI wall s | fabemu real wall s | fabemu synthetic wall s \
| fabemu real / SMPI speed-up | fabemu peak RSS real | SMPI peak RSS | simulated µs fabemu / SMPI | difference % |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${table_rows[@]}"
)"
echo "$table"
{
  echo "$header"
  echo
  echo "$table"
  echo
  echo "Algorithms: fabemu ring / recursive-doubling / rabenseifner = SMPI lr / rdb / rab_rdb. Speed-up = SMPI wall \
s / fabemu real wall s. Difference = (fabemu - SMPI) / SMPI simulated mean latency."
} > "$out/table.md"
echo
echo "run-smpi-comparison: wrote $out/table.md, $out/results.csv and $out/logs/"
