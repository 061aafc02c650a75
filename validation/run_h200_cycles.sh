#!/usr/bin/env bash
# One device call: every validation kernel at --small size, each variant
# profiled REPEAT times back to back (default 7) for gpc__cycles_elapsed.max
# alone (one ncu pass a launch, caches emptied before each as in run_h200.sh).
# collect.py takes the median per variant: a one-launch reading of a short
# kernel moves by up to 15 % between runs. Writes $OUT/ncu_cycles_small.csv
# (sections "== NAME", like ncu_small.csv) and $OUT/provenance_cycles.txt.
# Usage (repository root): validation/run_h200_cycles.sh [REPEAT]
set -u
REPEAT=${1:-7}
cd "$(dirname "$0")" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source common/provenance.sh
BIN=$(mktemp -d)
: >"$OUT/ncu_cycles_small.csv"
for name in lds_bank transpose constant coalescing memory shared_compute; do
    nvcc -O3 -arch=sm_90 -lineinfo -x cu "kernels/$name.hip" -o "$BIN/$name" || { echo "build of $name failed"; continue; }
    echo "== $name" >>"$OUT/ncu_cycles_small.csv"
    ncu --clock-control none --csv --metrics gpc__cycles_elapsed.max "$BIN/$name" --small --repeat "$REPEAT" \
        >>"$OUT/ncu_cycles_small.csv" 2>>"$OUT/ncu_cycles.err"
    echo "$name: $(grep -c '^"' "$OUT/ncu_cycles_small.csv") lines so far"
done
provenance "nvcc -O3 -arch=sm_90 -lineinfo -x cu kernels/NAME.hip -o NAME" \
    "ncu --clock-control none --csv --metrics gpc__cycles_elapsed.max ./NAME --small --repeat $REPEAT" >"$OUT/provenance_cycles.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv >>"$OUT/provenance_cycles.txt" 2>&1
