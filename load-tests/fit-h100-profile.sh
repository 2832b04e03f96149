#!/usr/bin/env bash
# Fits the fitted figures of profiles/h100-sxm-8gpu-ndr.conf to the published one-server nccl-tests table
# (reference/nccl-allreduce-h100x8-azure.csv): the per-message software cost (devices.host send-overhead and
# recv-overhead, one value for both) and each protocol's cost (workload.protocol-costs: a latency and a payload
# rate per engine). Each candidate is the profile with some of them changed; for each it runs
#   bin/fabemu all-reduce-perf --profile <the candidate> --nodes 1 --ppn 8 -b 1K -e 64M -f 2 -n 1 -w 0 \
#     --algorithm ring --reference reference/nccl-allreduce-h100x8-azure.csv
# and prints the MAPE of the in-place bus bandwidth over the sizes both have, per band, then the best candidate.
# Busbw is virtual time: the figures do not depend on the machine or its load. See docs/calibration.md
# ("H100 server").
#
# Usage: load-tests/fit-h100-profile.sh CANDIDATE ...
#   A candidate is NAME=VALUE[,NAME=VALUE...] (the profile's value for every name left out), names:
#     overhead          send-overhead and recv-overhead, ns
#     simple-latency, ll-latency, ll128-latency     the protocol's latency, ns
#     simple-rate, ll-rate, ll128-rate              the protocol's payload rate per engine, Gbps (0: no limit)
#   e.g. load-tests/fit-h100-profile.sh overhead=0 overhead=50 overhead=100,ll-rate=48
#   With no candidate it evaluates the profile as it is.
# Needs: the fabemu CLI built (mvn -B -q -DskipTests package).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
profile="$root/profiles/h100-sxm-8gpu-ndr.conf"
reference="$root/reference/nccl-allreduce-h100x8-azure.csv"
if [ ! -f "$root/app/target/fabemu.jar" ]; then
  echo "fit-h100-profile: fabemu is not built: run 'mvn -B -q -DskipTests package' first" >&2
  exit 2
fi
candidates=("$@")
[ ${#candidates[@]} -gt 0 ] || candidates=("as-is")
# The sed expression that sets one fitted figure in the profile.
edit() {
  local name="$1" value="$2"
  [[ "$value" =~ ^[0-9]{1,6}$ ]] || { echo "fit-h100-profile: '$name=$value': not a whole number" >&2; exit 2; }
  case "$name" in
    overhead) echo "s/^( *(send|recv)-overhead = )[^#]*/\\1$value ns   /" ;;
    simple-latency|ll-latency|ll128-latency)
      echo "s/^( *${name%-latency} *\\{ *latency = )[0-9]+ ns/\\1$value ns/" ;;
    simple-rate|ll-rate|ll128-rate)
      echo "s/^( *${name%-rate} *\\{ *latency = [0-9]+ ns, rate = )[0-9]+ Gbps/\\1$value Gbps/" ;;
    *) echo "fit-h100-profile: '$name' is not a fitted figure (overhead, simple-latency, ll-latency," \
         "ll128-latency, simple-rate, ll-rate, ll128-rate)" >&2; exit 2 ;;
  esac
}
for c in "${candidates[@]}"; do
  [ "$c" = "as-is" ] && continue
  IFS=',' read -ra pairs <<<"$c"
  for pair in "${pairs[@]}"; do
    [[ "$pair" == *=* ]] || { echo "fit-h100-profile: '$pair' is not NAME=VALUE" >&2; exit 2; }
    edit "${pair%%=*}" "${pair#*=}" >/dev/null
  done
done
grep -Eq '^ *ll128 *\{ *latency = [0-9]+ ns, rate = [0-9]+ Gbps' "$profile" \
  || { echo "fit-h100-profile: $profile has no 'll128 { latency = N ns, rate = N Gbps' line" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
best=""
best_mape=""
printf '%-40s %s\n' "candidate" "MAPE (all; below 1 MiB; 1 MiB to 64 MiB; 64 MiB and above)"
n=0
for c in "${candidates[@]}"; do
  n=$((n + 1))
  candidate="$work/h100-$n.conf"
  cp "$profile" "$candidate"
  if [ "$c" != "as-is" ]; then
    IFS=',' read -ra pairs <<<"$c"
    for pair in "${pairs[@]}"; do
      sed -E -i -e "$(edit "${pair%%=*}" "${pair#*=}")" "$candidate"
    done
  fi
  log="$work/h100-$n.log"
  "$root/bin/fabemu" all-reduce-perf --profile "$candidate" --nodes 1 --ppn 8 -b 1K -e 64M -f 2 \
    --algorithm ring -n 1 -w 0 --reference "$reference" > "$log" 2>&1 || true
  line="$(grep '^# fabemu: MAPE' "$log" || true)"
  if [ -z "$line" ]; then
    echo "fit-h100-profile: the run of '$c' printed no MAPE line; its last lines:" >&2
    tail -5 "$log" >&2
    exit 1
  fi
  mape="$(sed -E 's/^# fabemu: MAPE ([0-9.]+) %.*/\1/' <<<"$line")"
  printf '%-40s %s\n' "$c" "${line#\# fabemu: }"
  if [ -z "$best_mape" ] || awk -v a="$mape" -v b="$best_mape" 'BEGIN { exit !(a < b) }'; then
    best="$c"
    best_mape="$mape"
  fi
done
echo "best: $best (MAPE $best_mape %)"
