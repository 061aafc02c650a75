#!/usr/bin/env bash
# One device call on the H200 (issue "transfers", acceptances 3 and 4): builds dcutrace and a program
# (nvcc, sm_90), times it uninstrumented, then captures it with dcutrace, host calls included.
#   (default)    validation/kernels/host_kinds.hip: timed (cudaEvent medians of 11 iterations after a
#                warm-up), then one iteration (--once) captured;
#   --transfers  validation/kernels/transfers.hip at full size: captured with no kernel traced (its
#                copies, syncs and host time; --kernel '^$'), then timed.
# Writes to $OUT: provenance.txt, NAME.txt (RESULT lines), NAME.trace, host_log.txt (dcutrace
# --host-log), capture.txt (dcutrace's output), build.log.
# Usage (repository root, or a copy of its needed files): validation/run_h200_hostcapture.sh [--transfers]
set -uo pipefail
NAME=host_kinds CAPTURE_ARGS=() RUN_ARGS=(--once)
if [ "${1:-}" = --transfers ]; then NAME=transfers CAPTURE_ARGS=(--kernel '^$') RUN_ARGS=(); fi
OUT=${OUT:-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PATH=/usr/local/cuda/bin:$PATH
WORK=$(mktemp -d)
FLAGS="-O3 -arch=sm_90 -lineinfo"
SAN=/usr/local/cuda/compute-sanitizer/include
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(cat "$ROOT/COMMIT" 2>/dev/null || git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "host: $(hostname), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,pcie.link.gen.current,pcie.link.width.current --format=csv
    nvcc --version | tail -2
    echo "build: nvcc $FLAGS -x cu validation/kernels/$NAME.hip -o $NAME"
    echo "timed: ./$NAME"
    echo "capture: dcutrace -o $NAME.trace --host-log host_log.txt ${CAPTURE_ARGS[*]} -- ./$NAME ${RUN_ARGS[*]}"
    echo "== the Sanitizer's names dcutrace's host hooks use ($SAN)"
    grep -ho "SANITIZER_MEMORY_FLAG_HOST_[A-Z]*\|SANITIZER_CBID_EVENTS_[A-Z_]*\|SANITIZER_CBID_SYNCHRONIZE_[A-Z_]*" "$SAN"/sanitizer_callbacks.h | sort -u | tr '\n' ' '
    echo
} >"$OUT/provenance.txt" 2>&1

echo "== dcutrace" >"$OUT/build.log"
DCUTRACE=
if cmake -S "$ROOT/traces/capture/nvidia" -B "$WORK/capture" >>"$OUT/build.log" 2>&1 &&
    cmake --build "$WORK/capture" -j"$(nproc)" >>"$OUT/build.log" 2>&1; then
    DCUTRACE=$WORK/capture/dcutrace
else
    echo "dcutrace build FAILED"; grep -n "error" "$OUT/build.log" | head -30
    # What the hooks need, for the fix: the structures as this CUDA declares them.
    for s in Sanitizer_MemcpyData Sanitizer_SynchronizeData Sanitizer_EventData Sanitizer_ResourceMemoryData Sanitizer_CallbackData; do
        awk "/typedef struct/{buf=\"\"} {buf=buf\"\\n\"\$0} /} $s;/{print buf}" "$SAN"/sanitizer_callbacks.h
    done >>"$OUT/build.log"
fi
echo "== $NAME" >>"$OUT/build.log"
nvcc $FLAGS -x cu "$ROOT/validation/kernels/$NAME.hip" -o "$WORK/$NAME" >>"$OUT/build.log" 2>&1 ||
    { echo "nvcc FAILED"; tail -20 "$OUT/build.log"; exit 1; }

timed() {
    timeout 100 "$WORK/$NAME" >"$OUT/$NAME.txt" 2>&1
    echo "timed rc $?" >>"$OUT/provenance.txt"
}
capture() {
    [ -n "$DCUTRACE" ] || return
    (cd "$WORK" && timeout 150 "$DCUTRACE" -o "$OUT/$NAME.trace" --host-log "$OUT/host_log.txt" "${CAPTURE_ARGS[@]}" \
        -- "./$NAME" "${RUN_ARGS[@]}") >"$OUT/capture.txt" 2>&1
    echo "capture rc $?" >>"$OUT/provenance.txt"
}
# The capture first where it is the new part and the timing is already committed (transfers).
if [ "$NAME" = transfers ]; then capture; timed; else timed; capture; fi
cat "$OUT/provenance.txt"
cat "$OUT/$NAME.txt" | head -40
tail -8 "$OUT/capture.txt" 2>/dev/null
head -60 "$OUT/host_log.txt" 2>/dev/null
ls -la "$OUT"
