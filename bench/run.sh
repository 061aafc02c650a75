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
run() {
    echo "--- $1, trace $(stat -c %s "$T/t.dctrace") bytes"
    $pin "$B/bench/bench_replay" "$T/t.dctrace" "${@:2}"
}
for blocks in 2560 5120; do
    "$B/dcusim-tracegen" lds-const --blocks "$blocks" --waves 4 --iters 140 -o "$T/t.dctrace"
    run "on-chip: $blocks workgroups x 4 waves x 140 iterations"
done
for blocks in 2560 5120; do
    "$B/dcusim-tracegen" stream --bytes $((blocks << 13)) --blocks "$blocks" --waves 4 --lane-bytes 4 -o "$T/t.dctrace"
    run "full path: $((blocks >> 7)) MiB stream from DRAM ($blocks workgroups x 8 KiB), 4-byte lanes"
done
"$B/dcusim-tracegen" stream --bytes $((2 << 20)) --blocks 256 --waves 4 --lane-bytes 4 --passes 8 -o "$T/t.dctrace"
run "full path: 2 MiB read 8 times (L2-resident after the first pass), 4-byte lanes"
# The H200 preset (the validation runs): wave32, one 128-byte line of four
# 32-byte bursts per instruction, 132 SMs, 96 L2 slices, 188 DRAM channels.
"$B/dcusim-tracegen" stream --bytes $((32 << 20)) --blocks 1024 --waves 8 --lane-bytes 4 --wave-size 32 -o "$T/t.dctrace"
run "full path, H200 preset: 32 MiB stream from DRAM (1024 workgroups x 32 KiB), 4-byte lanes" --config "$(dirname "$0")/../configs/h200.ini"
