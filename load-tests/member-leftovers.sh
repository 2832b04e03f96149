# Sourced by the benchmark scripts that start local members (run-distributed-benchmark.sh,
# run-parallel-benchmark.sh): no member JVM may outlive a run, nor its Aeron folder.
#
# reap_members NAME CPID PIDS: waits up to 15 s for the member JVMs PIDS to leave (they do on their own within
# seconds), kills what is left by pid, and removes any /dev/shm/fabemu-aeron-<pid>-* folder of CPID and PIDS; each
# leftover is reported on stderr, prefixed with NAME.
reap_members() {
  local name="$1" cpid="$2" pids="$3" left="" deadline=$((SECONDS + 15)) p d
  while :; do
    left=""
    for p in $pids; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
    [ -z "$left" ] || [ $SECONDS -ge $deadline ] && break
    sleep 0.5
  done
  if [ -n "$left" ]; then
    echo "$name: member JVM(s)$left still running 15 s after the run; killing them" >&2
    for p in $left; do kill -KILL "$p" 2>/dev/null || true; done
  fi
  for p in $cpid $pids; do
    for d in /dev/shm/fabemu-aeron-"$p"-*; do
      [ -e "$d" ] || continue
      echo "$name: $d left behind; removing it" >&2
      rm -rf "$d"
    done
  done
}
