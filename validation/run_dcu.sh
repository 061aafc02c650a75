#!/usr/bin/env bash
# The DCU (or any AMD GPU) counterpart of run_h200.sh, for a DCU owner: build
# with hipcc, time each variant at full and --small size, and read counters
# with rocprof at both sizes. NOT RUN HERE: we have no DCU; the counter names
# are the gfx9 ones and may need adjusting to the card's rocprof.
# Writes to $OUT: results.csv (scale,family,variant,size,median_ms,bytes),
# rocprof_full/NAME.csv, rocprof_small/NAME.csv, build.log, provenance.txt.
# Then: validation/collect.py $OUT (measurements.csv with rocprof names), copy
# the H200 traces (validation/results/h200/traces, the same kernels) into
# $OUT/traces, and run: dcusim validate $OUT --config configs/dcu-z100.ini
# (wave32 traces are regrouped to the DCU's wave64). dcutrace is NVIDIA-only.
set -uo pipefail
OUT=${OUT:-out}
ARCH=${ARCH:-gfx906}
mkdir -p "$OUT/rocprof_full" "$OUT/rocprof_small"
cd "$(dirname "$0")" || exit 1
BIN=$(mktemp -d)
cat >"$BIN/counters.txt" <<'C'
pmc: SQ_WAVES SQ_INSTS_LDS SQ_LDS_BANK_CONFLICT SQ_INSTS_SMEM
pmc: TCP_TOTAL_CACHE_ACCESSES_sum TCP_TCC_READ_REQ_sum
pmc: TCC_HIT_sum TCC_MISS_sum TCC_EA_RDREQ_sum TCC_EA_WRREQ_sum
pmc: GRBM_GUI_ACTIVE SQ_WAIT_INST_LDS
C
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
    rocm-smi --showproductname --showclocks 2>&1 || true
    hipcc --version 2>&1 | head -3
    echo "build: hipcc -O3 --offload-arch=$ARCH kernels/NAME.hip -o NAME"
    echo "time: ./NAME [--small]"
    echo "counters: rocprof -i counters.txt -o rocprof_SCALE/NAME.csv ./NAME [--small] --once"
} >"$OUT/provenance.txt"
echo "scale,family,variant,size,median_ms,bytes" >"$OUT/results.csv"
: >"$OUT/build.log"
for src in kernels/*.hip; do
    name=$(basename "$src" .hip)
    hipcc -O3 --offload-arch="$ARCH" -save-temps=obj "$src" -o "$BIN/$name" >>"$OUT/build.log" 2>&1 || continue
    "$BIN/$name" | awk '/^RESULT/ {print "full,"$2","$3","$4","$5","$6}' >>"$OUT/results.csv"
    "$BIN/$name" --small | awk '/^RESULT/ {print "small,"$2","$3","$4","$5","$6}' >>"$OUT/results.csv"
    rocprof -i "$BIN/counters.txt" -o "$OUT/rocprof_full/$name.csv" "$BIN/$name" --once >>"$OUT/build.log" 2>&1
    rocprof -i "$BIN/counters.txt" -o "$OUT/rocprof_small/$name.csv" "$BIN/$name" --small --once >>"$OUT/build.log" 2>&1
done
