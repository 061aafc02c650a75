#!/usr/bin/env bash
# The replay benchmarks, each on one core, with the default preset (dcu-z100)
# unless said otherwise:
#  1. on-chip: LDS- and constant-heavy traces of about 10 M and 20 M wave
#     instructions (same workgroup shape, twice the workgroups);
#  2. full global-memory path: coalesced 4-byte streams through L1, L2 and
#     HBM (20 and 40 MiB from DRAM: 2,560 and 5,120 workgroups of 8 KiB, more
#     than the GPU holds at once, so peak RSS must stay flat), and a 2 MiB
#     buffer read 8 times (L2-resident); a 32 MiB stream on the H200 preset.
# Peak RSS must not grow with the trace length. Usage: bench/run.sh [BUILD_DIR]
set -euo pipefail
B=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
# dcusim asks for transparent huge pages (sim/host_memory.cpp); they count for 10-40 % here.
echo "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
BENCH_ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$BENCH_ROOT/bench/traces.sh"
make_traces "$B/dcusim-tracegen" "$T" >"$T/list"
while IFS='|' read -r n what extra; do
    echo "--- $what, trace $(stat -c %s "$T/$n.dctrace") bytes"
    # shellcheck disable=SC2086  # extra: the preset's arguments, word-split on purpose
    $pin "$B/bench/bench_replay" "$T/$n.dctrace" $extra
done <"$T/list"
