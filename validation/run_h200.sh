#!/usr/bin/env bash
# One device call on the H200: builds dcutrace and the validation kernels
# (nvcc, sm_90), then for each program:
#   full size:  times every variant (events: 2 warm-ups, median of 21) and
#               reads its counters with ncu (--clock-control none, one launch each);
#   --small:    the same, plus a capture of every launch with dcutrace from a
#               capture build (-DDCU_CAPTURE: __constant__ data in global memory).
# Writes to $OUT: one binary trace per program (NAME.trace) and results.tar
# (results.csv, ncu_full.csv, ncu_small.csv, capture_NAME.csv, build.log,
# capture.log, provenance.txt). validation/collect.py turns them into
# measurements.csv. With --smoke: dcutrace on two programs only. With
# --capture: the traces of every program, no measurement (for a capture tool
# that writes more than before: the measurements committed stay).
# Usage (repository root): validation/run_h200.sh [--smoke | --capture]
set -uo pipefail
OUT=${OUT:-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT/validation" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
WORK=$(mktemp -d)
RES=$WORK/h200
BIN=$WORK/bin
mkdir -p "$RES" "$BIN"
SMOKE=0
CAPTURE_ONLY=0
[ "${1:-}" = "--smoke" ] && SMOKE=1
[ "${1:-}" = "--capture" ] && SMOKE=1 && CAPTURE_ONLY=1
PROGRAMS="lds_bank transpose constant coalescing memory shared_compute"
[ $SMOKE = 1 ] && [ $CAPTURE_ONLY = 0 ] && PROGRAMS="lds_bank constant"
source common/ncu_metrics.sh
NVCC_FLAGS="-O3 -arch=sm_90 -lineinfo"

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "host: $(hostname)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.total --format=csv
    nvcc --version | tail -2
    ncu --version | tail -1
    echo "build: nvcc $NVCC_FLAGS -Xptxas -v -x cu kernels/NAME.hip -o NAME"
    echo "capture build: nvcc $NVCC_FLAGS -DDCU_CAPTURE -x cu kernels/NAME.hip -o NAME_capture"
    echo "dcutrace: cmake -S traces/capture/nvidia -B build-capture && cmake --build build-capture"
    echo "time: ./NAME [--small]   (RESULT lines: family variant size median_ms bytes)"
    echo "counters: ncu --clock-control none --csv --metrics METRICS ./NAME [--small] --once"
    echo "METRICS: $METRICS"
    echo "capture: dcutrace -o NAME.trace --times capture_NAME.csv -- ./NAME_capture --small --once"
} >"$RES/provenance.txt" 2>&1

echo "== dcutrace" | tee "$RES/build.log"
if cmake -S "$ROOT/traces/capture/nvidia" -B "$WORK/capture" >>"$RES/build.log" 2>&1 &&
    cmake --build "$WORK/capture" -j"$(nproc)" >>"$RES/build.log" 2>&1; then
    DCUTRACE=$WORK/capture/dcutrace
else
    echo "dcutrace build FAILED"; tail -40 "$RES/build.log"; DCUTRACE=
fi

echo "scale,family,variant,size,median_ms,bytes" >"$RES/results.csv"
: >"$RES/ncu_full.csv"; : >"$RES/ncu_small.csv"; : >"$RES/capture.log"
for name in $PROGRAMS; do
    echo "== $name" | tee -a "$RES/build.log"
    nvcc $NVCC_FLAGS -Xptxas -v -x cu "kernels/$name.hip" -o "$BIN/$name" >>"$RES/build.log" 2>&1 || { echo "build of $name failed"; continue; }
    nvcc $NVCC_FLAGS -DDCU_CAPTURE -x cu "kernels/$name.hip" -o "$BIN/${name}_capture" >>"$RES/build.log" 2>&1 || echo "capture build of $name failed"
    if [ $SMOKE = 0 ]; then
        "$BIN/$name" | awk '/^RESULT/ {print "full,"$2","$3","$4","$5","$6}' >>"$RES/results.csv"
        echo "== $name" >>"$RES/ncu_full.csv"
        ncu --clock-control none --csv --metrics "$METRICS" "$BIN/$name" --once >>"$RES/ncu_full.csv" 2>>"$RES/build.log"
        echo "== $name" >>"$RES/ncu_small.csv"
        ncu --clock-control none --csv --metrics "$METRICS" "$BIN/$name" --small --once >>"$RES/ncu_small.csv" 2>>"$RES/build.log"
    fi
    [ $CAPTURE_ONLY = 0 ] && "$BIN/$name" --small | awk '/^RESULT/ {print "small,"$2","$3","$4","$5","$6}' >>"$RES/results.csv"
    if [ -n "$DCUTRACE" ]; then
        echo "== $name" >>"$RES/capture.log"
        start=$(date +%s%N)
        "$DCUTRACE" -o "$OUT/$name.trace" --times "$RES/capture_$name.csv" -- "$BIN/${name}_capture" --small --once >>"$RES/capture.log" 2>&1
        rc=$?
        echo "rc $rc, wall $((($(date +%s%N) - start) / 1000000)) ms" >>"$RES/capture.log"
        tail -3 "$RES/capture.log"
    fi
done
# Self-check: the host-ring path (1 MiB of device staging: the rest through
# host memory) must capture the same as the device path. Buffer addresses
# differ between processes, so compare here with the kernels' statistics and
# locally with `dcusim trace stats` (transpose_ring.trace comes back too).
if [ -n "$DCUTRACE" ] && [ -f "$OUT/transpose.trace" ]; then
    "$DCUTRACE" --device-mb 1 -o "$OUT/transpose_ring.trace" -- "$BIN/transpose_capture" --small --once >>"$RES/capture.log" 2>&1
    echo "self-check: transpose through the host ring: $(tail -1 "$RES/capture.log")" | tee -a "$RES/capture.log"
fi
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv >>"$RES/provenance.txt" 2>&1
tar -C "$WORK" -cf "$OUT/results.tar" h200
grep -v "warp instructions (" "$RES/capture.log"; cat "$RES"/capture_*.csv
ls -la "$OUT"
echo "done: $(($(wc -l <"$RES/results.csv") - 1)) result lines, $(grep -c '^"' "$RES/ncu_small.csv") small counter lines"
