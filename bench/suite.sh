#!/usr/bin/env bash
# Replay speed on real kernels: the committed validation traces (39 kernels
# captured on the H200, validation/results/h200/traces) through the H200
# preset under the measurement's and the capture's conditions (replay.ini,
# capture.ini), each trace on one core. Reports per trace and in total:
#  - executed warp instructions per CPU second, counted as the profiler counts
#    them (`compute N` is N instructions; waits are not counted): the unit of
#    Accel-Sim's published speed (docs/PERFORMANCE.md);
#  - wave memory instructions and L1 line lookups per CPU second.
# Usage: bench/suite.sh [BUILD_DIR]
set -euo pipefail
B=${1:-build}
R=$(cd "$(dirname "$0")/.." && pwd)
V="$R/validation/results/h200"
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '%-16s %12s %12s %10s %8s %14s %12s %12s\n' trace executed mem_instr l1_lines cpu_s executed/s mem/s lines/s
tot_e=0 tot_m=0 tot_l=0 tot_c=0
get() { awk -v k="$1" '$1 == k { print $2 }' <<<"$out"; }
# row NAME EXECUTED MEM_INSTR L1_LINES CPU_S
row() {
    awk -v n="$1" -v e="$2" -v m="$3" -v l="$4" -v c="$5" \
        'BEGIN { printf "%-16s %12d %12d %10d %8.3f %14.0f %12.0f %12.0f\n", n, e, m, l, c, e / c, m / c, l / c }'
}
capture=()
[ -f "$V/capture.ini" ] && capture=(--config "$V/capture.ini")
for t in "$V"/traces/*.trace; do
    # replay.ini and capture.ini layered on the preset, as `dcusim validate` loads them.
    out=$($pin "$B/bench/bench_replay" "$t" --config "$R/configs/h200.ini" --config "$V/replay.ini" "${capture[@]}")
    e=$(get executed_instructions) m=$(get mem_instructions) l=$(get l1_lines) c=$(get cpu_s)
    row "$(basename "$t" .trace)" "$e" "$m" "$l" "$c"
    tot_e=$((tot_e + e)) tot_m=$((tot_m + m)) tot_l=$((tot_l + l))
    tot_c=$(awk -v a="$tot_c" -v b="$c" 'BEGIN { print a + b }')
done
row all "$tot_e" "$tot_m" "$tot_l" "$tot_c"
