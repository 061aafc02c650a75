#!/usr/bin/env bash
# The DCU (or any AMD GPU) counterpart of run_h200.sh and run_h200_dcucc.sh, for
# a DCU owner, on the DCU itself: build each validation program with dcucc twice
# (instrumented, and --dcucc-plain: the same hipcc build without the pass, the
# one measured), time each variant of the plain build at full and --small size,
# read its counters with rocprof at both sizes, and capture every --small
# launch with the instrumented build into $OUT/traces/NAME.trace.
# NOT RUN HERE: we have no DCU; the counter names are the gfx9 ones and may need
# adjusting to the card's rocprof. dcucc needs its pass built against the LLVM
# of the hipcc in use (DTK: cmake -S traces/capture/llvm -B build-dcucc
# -DLLVM_DIR=<DTK>/llvm/lib/cmake/llvm; set DCUCC to the dcucc beside it).
# Writes to $OUT: results.csv (scale,family,variant,size,median_ms,bytes),
# rocprof_full/NAME.csv, rocprof_small/NAME.csv, traces/NAME.trace,
# capture_NAME.csv (per launch: records and capture times), build.log,
# capture.log, provenance.txt.
# Then: validation/collect.py $OUT (measurements.csv with rocprof names,
# pairs.csv) and dcusim validate $OUT --config configs/dcu-z100.ini.
# Usage (repository root, after scripts/build.sh): validation/run_dcu.sh
set -uo pipefail
OUT=${OUT:-out}
ARCH=${ARCH:-gfx906}
mkdir -p "$OUT/rocprof_full" "$OUT/rocprof_small" "$OUT/traces"
OUT=$(cd "$OUT" && pwd)
cd "$(dirname "$0")" || exit 1
DCUCC=${DCUCC:-$(pwd)/../build/dcucc}
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
    echo "build: dcucc --dcucc-plain -O3 --offload-arch=$ARCH -gline-tables-only kernels/NAME.hip -o NAME"
    echo "capture build: dcucc -O3 --offload-arch=$ARCH -gline-tables-only kernels/NAME.hip -o NAME_dcucc"
    echo "time: ./NAME [--small]"
    echo "counters: rocprof -i counters.txt -o rocprof_SCALE/NAME.csv ./NAME [--small] --once"
    echo "capture: DCUCC_TRACE=traces/NAME.trace DCUCC_TIMES=capture_NAME.csv ./NAME_dcucc --small --once"
} >"$OUT/provenance.txt"
echo "scale,family,variant,size,median_ms,bytes" >"$OUT/results.csv"
: >"$OUT/build.log"
for src in kernels/*.hip; do
    name=$(basename "$src" .hip)
    flags="-O3 --offload-arch=$ARCH -gline-tables-only"
    "$DCUCC" --dcucc-plain $flags "$src" -o "$BIN/$name" >>"$OUT/build.log" 2>&1 || continue
    "$DCUCC" $flags "$src" -o "$BIN/${name}_dcucc" >>"$OUT/build.log" 2>&1 || echo "dcucc build of $name failed"
    "$BIN/$name" | awk '/^RESULT/ {print "full,"$2","$3","$4","$5","$6}' >>"$OUT/results.csv"
    "$BIN/$name" --small | awk '/^RESULT/ {print "small,"$2","$3","$4","$5","$6}' >>"$OUT/results.csv"
    rocprof -i "$BIN/counters.txt" -o "$OUT/rocprof_full/$name.csv" "$BIN/$name" --once >>"$OUT/build.log" 2>&1
    rocprof -i "$BIN/counters.txt" -o "$OUT/rocprof_small/$name.csv" "$BIN/$name" --small --once >>"$OUT/build.log" 2>&1
    echo "== $name" >>"$OUT/capture.log"
    DCUCC_TRACE="$OUT/traces/$name.trace" DCUCC_TIMES="$OUT/capture_$name.csv" "$BIN/${name}_dcucc" --small --once \
        >>"$OUT/capture.log" 2>&1
    echo "capture rc $?" >>"$OUT/capture.log"
done
