#!/usr/bin/env bash
# One device call on the H200 for the suite built with dcucc
# (validation/build_dcucc_h200.sh, carried as validation/dcucc-bin: NAME is the
# instrumented program, NAME_plain the same clang build without instrumentation).
# For each program, at --small size:
#   - dcucc's capture of every launch (DCUCC_TRACE), with per-launch times;
#   - dcutrace's capture of NAME_plain: the same machine code seen from SASS,
#     so that the two captures differ only by how they see it;
#   - the measurements of NAME_plain, the build that is measured: timing
#     (median of 21), ncu's counters (one launch each) and ncu's cycles
#     (REPEAT launches each), as run_h200.sh and run_h200_cycles.sh do for nvcc.
# It also checks that a record buffer too small for a launch fails the capture
# (exit 3, no trace) instead of losing records.
# Writes to $OUT: dcucc_traces.tar (traces/NAME.trace), dcutrace_traces.tar
# (dcutrace-traces/NAME.trace) and results.tar (h200-dcucc/: results.csv,
# ncu_small.csv, ncu_cycles_small.csv, capture_NAME.csv, dcutrace_NAME.csv,
# run.log, provenance.txt). validation/collect.py turns them into measurements.csv.
# CAPTURE_ONLY=1 runs dcucc's captures and the small-buffer check only: for a
# change of the pass, which leaves NAME_plain, its measurements and dcutrace's
# capture as they were.
# Usage (repository root): [CAPTURE_ONLY=1] validation/run_h200_dcucc.sh [REPEAT]
set -uo pipefail
REPEAT=${1:-7}
CAPTURE_ONLY=${CAPTURE_ONLY:-0}
OUT=${OUT:-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/validation/dcucc-bin
cd "$ROOT/validation" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
# Each kernel says whether its compute, waits and record order came from the plain build's SASS (nvdisasm) or the IR.
export DCUCC_VERBOSE=1
WORK=$(mktemp -d)
RES=$WORK/h200-dcucc
mkdir -p "$RES" "$WORK/traces" "$WORK/dcutrace-traces"
PROGRAMS="lds_bank transpose constant coalescing memory shared_compute"
source common/ncu_metrics.sh
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.total --format=csv
    nvcc --version | tail -2
    ncu --version | tail -1
    cat "$BIN/BUILD.txt"
    echo "capture: DCUCC_TRACE=traces/NAME.trace DCUCC_TIMES=capture_NAME.csv dcucc-bin/NAME --small --once"
    echo "order: DCUCC_ORDER=${DCUCC_ORDER:-sass (the default)}, counts: DCUCC_COUNTS=${DCUCC_COUNTS:-ir (the default)}"
    echo "dcutrace: dcutrace -o dcutrace-traces/NAME.trace --times dcutrace_NAME.csv -- dcucc-bin/NAME_plain --small --once"
    echo "time: dcucc-bin/NAME_plain --small   (RESULT lines: family variant size median_ms bytes)"
    echo "counters: ncu --clock-control none --csv --metrics METRICS dcucc-bin/NAME_plain --small --once"
    echo "cycles: ncu --clock-control none --csv --metrics gpc__cycles_elapsed.max dcucc-bin/NAME_plain --small --repeat $REPEAT"
    echo "METRICS: $METRICS"
} >"$RES/provenance.txt" 2>&1

echo "== dcutrace" | tee "$RES/run.log"
DCUTRACE=
if [ "$CAPTURE_ONLY" = 1 ]; then
    echo "capture only: no dcutrace, no measurements" | tee -a "$RES/run.log"
elif cmake -S "$ROOT/traces/capture/nvidia" -B "$WORK/capture" >>"$RES/run.log" 2>&1 &&
    cmake --build "$WORK/capture" -j"$(nproc)" >>"$RES/run.log" 2>&1; then
    DCUTRACE=$WORK/capture/dcutrace
else
    echo "dcutrace build FAILED"; tail -20 "$RES/run.log"
fi

echo "scale,family,variant,size,median_ms,bytes" >"$RES/results.csv"
: >"$RES/ncu_small.csv"; : >"$RES/ncu_cycles_small.csv"
for name in $PROGRAMS; do
    echo "== $name" | tee -a "$RES/run.log"
    start=$(date +%s%N)
    DCUCC_TRACE="$WORK/traces/$name.trace" DCUCC_TIMES="$RES/capture_$name.csv" "$BIN/$name" --small --once >>"$RES/run.log" 2>&1
    echo "dcucc capture rc $?, wall $((($(date +%s%N) - start) / 1000000)) ms" | tee -a "$RES/run.log"
    [ "$CAPTURE_ONLY" = 1 ] && continue
    if [ -n "$DCUTRACE" ]; then
        "$DCUTRACE" -o "$WORK/dcutrace-traces/$name.trace" --times "$RES/dcutrace_$name.csv" -- \
            "$BIN/${name}_plain" --small --once >>"$RES/run.log" 2>&1
        echo "dcutrace rc $?" | tee -a "$RES/run.log"
    fi
    "$BIN/${name}_plain" --small | awk '/^RESULT/ {print "small,"$2","$3","$4","$5","$6}' >>"$RES/results.csv"
    echo "== $name" >>"$RES/ncu_small.csv"
    ncu --clock-control none --csv --metrics "$METRICS" "$BIN/${name}_plain" --small --once \
        >>"$RES/ncu_small.csv" 2>>"$RES/run.log"
    echo "== $name" >>"$RES/ncu_cycles_small.csv"
    ncu --clock-control none --csv --metrics gpc__cycles_elapsed.max "$BIN/${name}_plain" --small --repeat "$REPEAT" \
        >>"$RES/ncu_cycles_small.csv" 2>>"$RES/run.log"
    echo "ncu: $(grep -c '^"' "$RES/ncu_small.csv") counter lines, $(grep -c '^"' "$RES/ncu_cycles_small.csv") cycle lines" |
        tee -a "$RES/run.log"
done
# A buffer of 1 MiB cannot hold transpose's records: the capture must fail whole.
DCUCC_BUFFER_MB=1 DCUCC_TRACE="$WORK/small_buffer.trace" "$BIN/transpose" --small --once >"$RES/small_buffer.log" 2>&1
echo "small-buffer check: rc $? (3 expected), trace written: $([ -e "$WORK/small_buffer.trace" ] && echo yes || echo no)" |
    tee -a "$RES/run.log"
tail -2 "$RES/small_buffer.log" | tee -a "$RES/run.log"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv >>"$RES/provenance.txt" 2>&1
tar -C "$WORK" -cf "$OUT/dcucc_traces.tar" traces
tar -C "$WORK" -cf "$OUT/dcutrace_traces.tar" dcutrace-traces
tar -C "$WORK" -cf "$OUT/results.tar" h200-dcucc
cat "$RES"/capture_*.csv | head -50
ls -la "$OUT" "$WORK/traces" "$WORK/dcutrace-traces"
