#!/usr/bin/env bash
# Replay speed on real kernels: the committed validation traces (39 kernels
# captured on the H200, validation/results/h200/traces) through the H200
# preset under the measurement's conditions (replay.ini), each trace on one
# core. Reports per trace and in total:
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
# replay.ini's keys as command-line pairs (bench_replay takes one --config).
mapfile -t extra < <(python3 - "$V/replay.ini" <<'EOF'
import sys
section = ""
for line in open(sys.argv[1]):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    if line.startswith("["):
        section = line.strip("[]")
        continue
    key, value = (x.strip() for x in line.split("=", 1))
    print(f"--{section}.{key}")
    print(value)
EOF
)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '%-16s %12s %12s %10s %8s %14s %12s %12s\n' trace executed mem_instr l1_lines cpu_s executed/s mem/s lines/s
tot_e=0 tot_m=0 tot_l=0 tot_c=0
for t in "$V"/traces/*.trace; do
    out=$($pin "$B/bench/bench_replay" "$t" --config "$R/configs/h200.ini" "${extra[@]}")
    get() { awk -v k="$1" '$1 == k { print $2 }' <<<"$out"; }
    e=$(get executed_instructions) m=$(get mem_instructions) l=$(get l1_lines) c=$(get cpu_s)
    awk -v n="$(basename "$t" .trace)" -v e="$e" -v m="$m" -v l="$l" -v c="$c" \
        'BEGIN { printf "%-16s %12d %12d %10d %8.3f %14.0f %12.0f %12.0f\n", n, e, m, l, c, e / c, m / c, l / c }'
    tot_e=$((tot_e + e)) tot_m=$((tot_m + m)) tot_l=$((tot_l + l))
    tot_c=$(awk -v a="$tot_c" -v b="$c" 'BEGIN { print a + b }')
done
awk -v e="$tot_e" -v m="$tot_m" -v l="$tot_l" -v c="$tot_c" \
    'BEGIN { printf "%-16s %12d %12d %10d %8.3f %14.0f %12.0f %12.0f\n", "all", e, m, l, c, e / c, m / c, l / c }'
