#!/usr/bin/env bash
# Fits the per-message software costs of profiles/h100-sxm-8gpu-ndr.conf (devices.host send-overhead and
# recv-overhead, one value for both) to the published one-server nccl-tests table
# (reference/nccl-allreduce-h100x8-azure.csv): for each candidate value it runs
#   bin/fabemu all-reduce-perf --profile <the profile with that value> --nodes 1 --ppn 8 -b 1K -e 64M -f 2 \
#     --algorithm ring -n 2 -w 1 --reference reference/nccl-allreduce-h100x8-azure.csv
# and prints the MAPE of the in-place bus bandwidth over the sizes both have, per band, then the best value. Busbw is
# virtual time: the figures do not depend on the machine or its load. See docs/calibration.md ("H100 server").
#
# Usage: load-tests/fit-h100-profile.sh [NS ...]   candidate overheads in ns (default 200 250 ... 600)
# Needs: the fabemu CLI built (mvn -B -q -DskipTests package).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
profile="$root/profiles/h100-sxm-8gpu-ndr.conf"
reference="$root/reference/nccl-allreduce-h100x8-azure.csv"
if [ ! -f "$root/app/target/fabemu.jar" ]; then
  echo "fit-h100-profile: fabemu is not built: run 'mvn -B -q -DskipTests package' first" >&2
  exit 2
fi
values=("$@")
[ ${#values[@]} -gt 0 ] || values=(200 250 300 350 400 450 500 550 600)
for v in "${values[@]}"; do
  [[ "$v" =~ ^[0-9]{1,6}$ ]] || { echo "fit-h100-profile: '$v' is not a whole number of ns" >&2; exit 2; }
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
grep -q '^ *send-overhead = ' "$profile" && grep -q '^ *recv-overhead = ' "$profile" \
  || { echo "fit-h100-profile: $profile has no send-overhead or recv-overhead line" >&2; exit 2; }
best=""
best_mape=""
printf '%-12s %s\n' "overhead ns" "MAPE (all; below 1 MiB; 1 MiB to 64 MiB; 64 MiB and above)"
for v in "${values[@]}"; do
  candidate="$work/h100-$v.conf"
  sed -E -e "s/^( *send-overhead = )[^#]*/\1$v ns   /" -e "s/^( *recv-overhead = )[^#]*/\1$v ns   /" \
    "$profile" > "$candidate"
  log="$work/h100-$v.log"
  "$root/bin/fabemu" all-reduce-perf --profile "$candidate" --nodes 1 --ppn 8 -b 1K -e 64M -f 2 \
    --algorithm ring -n 2 -w 1 --reference "$reference" > "$log" 2>&1 || true
  line="$(grep '^# fabemu: MAPE' "$log" || true)"
  if [ -z "$line" ]; then
    echo "fit-h100-profile: the run with $v ns printed no MAPE line; its last lines:" >&2
    tail -5 "$log" >&2
    exit 1
  fi
  mape="$(sed -E 's/^# fabemu: MAPE ([0-9.]+) %.*/\1/' <<<"$line")"
  printf '%-12s %s\n' "$v" "${line#\# fabemu: }"
  if [ -z "$best_mape" ] || awk -v a="$mape" -v b="$best_mape" 'BEGIN { exit !(a < b) }'; then
    best="$v"
    best_mape="$mape"
  fi
done
echo "best: send-overhead = recv-overhead = $best ns (MAPE $best_mape %)"
