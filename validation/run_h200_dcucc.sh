#!/usr/bin/env bash
# One device call on the H200: runs the validation suite built with dcucc
# (validation/build_dcucc_h200.sh, carried as validation/dcucc-bin) and writes
# one trace per program, the capture's per-launch times, and the native
# timings of the same programs built with nvcc, for the capture slowdown.
# It also checks that a record buffer too small for a launch fails the
# capture (exit 3, no trace) instead of losing records.
# Writes to $OUT: NAME.trace for each program and results.tar (times_NAME.csv,
# native.csv, run.log, provenance.txt).
# Usage (repository root): validation/run_h200_dcucc.sh
set -uo pipefail
OUT=${OUT:-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/validation/dcucc-bin
cd "$ROOT/validation" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
WORK=$(mktemp -d)
RES=$WORK/h200-dcucc
mkdir -p "$RES"
PROGRAMS="lds_bank transpose constant coalescing memory shared_compute"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.total --format=csv
    nvcc --version | tail -2
    cat "$BIN/BUILD.txt"
    echo "capture: DCUCC_TRACE=NAME.trace DCUCC_TIMES=times_NAME.csv dcucc-bin/NAME --small --once"
    echo "native: nvcc -O3 -arch=sm_90 -lineinfo -x cu kernels/NAME.hip -o NAME; ./NAME --small"
} >"$RES/provenance.txt" 2>&1
echo "scale,family,variant,size,median_ms,bytes,program" >"$RES/native.csv"
for name in $PROGRAMS; do
    echo "== $name" | tee -a "$RES/run.log"
    start=$(date +%s%N)
    DCUCC_TRACE="$OUT/$name.trace" DCUCC_TIMES="$RES/times_$name.csv" "$BIN/$name" --small --once >>"$RES/run.log" 2>&1
    rc=$?
    echo "capture rc $rc, wall $((($(date +%s%N) - start) / 1000000)) ms" | tee -a "$RES/run.log"
    if nvcc -O3 -arch=sm_90 -lineinfo -x cu "kernels/$name.hip" -o "$WORK/$name" >>"$RES/run.log" 2>&1; then
        "$WORK/$name" --small | awk -v p="$name" '/^RESULT/ {print "small,"$2","$3","$4","$5","$6","p}' >>"$RES/native.csv"
    fi
done
# A buffer of 1 MiB cannot hold transpose's records: the capture must fail whole.
DCUCC_BUFFER_MB=1 DCUCC_TRACE="$WORK/small_buffer.trace" "$BIN/transpose" --small --once >"$RES/small_buffer.log" 2>&1
echo "small-buffer check: rc $? (3 expected), trace written: $([ -e "$WORK/small_buffer.trace" ] && echo yes || echo no)" |
    tee -a "$RES/run.log"
tail -2 "$RES/small_buffer.log" | tee -a "$RES/run.log"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv >>"$RES/provenance.txt" 2>&1
tar -C "$WORK" -cf "$OUT/results.tar" h200-dcucc
cat "$RES"/times_*.csv 2>/dev/null | head -60
ls -la "$OUT"
