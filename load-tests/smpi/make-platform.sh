#!/usr/bin/env bash
# Writes SimGrid's side of fabemu's one-switch fabric (load-tests/smpi/allreduce-1switch.conf) for N hosts:
#   load-tests/smpi/make-platform.sh N PLATFORM.xml HOSTFILE
# PLATFORM.xml (SimGrid platform DTD 4.1, as SimGrid 3.32 reads it): one <cluster> of N hosts h0..h(N-1), each with
# a private 25 Gb/s, 1 us link to the cluster's switch. The cluster has no backbone, so the switch itself limits
# nothing (non-blocking), and host-to-host routes are the sender's link up and the receiver's link down: 2 links,
# 2 us, 25 Gb/s. The links are SPLITDUPLEX (an up and a down half, each 25 Gb/s), so a host that sends and receives
# at once gets 25 Gb/s each way, like fabemu's full-duplex cables. (A <zone routing="Full"> would need N^2 routes.)
# No loopback or limiter link is given: one rank per host never talks to itself over the network.
# Host speed is irrelevant: the comparison runs with smpi/simulate-computation:no.
# HOSTFILE: the N host names, one a line, for smpirun -hostfile (rank i on host hi).
set -euo pipefail

if [ "$#" -ne 3 ] || ! [[ "$1" =~ ^[1-9][0-9]{0,6}$ ]]; then
  echo "make-platform: usage: make-platform.sh N PLATFORM.xml HOSTFILE (N a positive integer)" >&2
  exit 2
fi
hosts="$1"
platform="$2"
hostfile="$3"

cat > "$platform" <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- $hosts hosts on one non-blocking switch, 25 Gb/s 1 us full-duplex host links (load-tests/smpi/make-platform.sh) -->
<platform version="4.1">
  <cluster id="switch" prefix="h" suffix="" radical="0-$((hosts - 1))" speed="1Gf"
           bw="25Gbps" lat="1us" sharing_policy="SPLITDUPLEX"/>
</platform>
EOF

for ((i = 0; i < hosts; i++)); do
  echo "h$i"
done > "$hostfile"
