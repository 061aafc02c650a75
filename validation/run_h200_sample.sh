#!/usr/bin/env bash
# One device call on the H200: captures the suite's large kernels for sampled
# simulation (issue 23, acceptance 3). Builds dcutrace and the capture builds
# (nvcc, sm_90, -DDCU_CAPTURE) of five programs, then runs each once at
# --sample-size (grids of 65,536 blocks of 256 threads: 62 occupancy rounds of
# the H200) under dcutrace, one binary (zstd) trace per group of kernels:
#   coalescing_a.trace  strided<1>, <2>, <4>, <8>
#   coalescing_b.trace  strided<16>, <32>, aos, soa
#   copy.trace          copy (256 MiB)
#   transpose.trace     transpose<0>, <1> (8192 x 8192: the full size)
#   reduce.trace        reduce (the full size)
#   stencil.trace       stencil_constant (2^24 elements)
#   spill.trace         spill (the full size; last, the largest capture)
# With --full: the suite's full size instead (262,144 blocks: 248 rounds),
# one kernel per file, for the kernels whose traces stay small at that size:
#   strided<2>, <4>, <8>, <16>, <32>, aos (coalescing, 2^26 reads), copy (1 GiB).
# Either way, results.tar (provenance.txt, build.log, capture.log, capture_*.csv).
# The device lends back at most 8 files of 16 MiB, 64 MiB in all: a trace over
# 16 MiB, or one that would take the total past 63 MiB, stays behind (said in
# capture.log); each capture may take 300 s. gather is left out (listed addresses: ~60 MB at this size),
# matmul16 too (its records grow as n^3).
# Usage (repository root): validation/run_h200_sample.sh [--full]
set -uo pipefail
OUT=${OUT:-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT/validation" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
WORK=$(mktemp -d)
RES=$WORK/h200_sample
BIN=$WORK/bin
mkdir -p "$RES" "$BIN"
NVCC_FLAGS="-O3 -arch=sm_90 -lineinfo"
# group  program  kernel regex
CAPTURES="coalescing_a coalescing ^strided<(1|2|4|8)>
coalescing_b coalescing ^(strided<(16|32)>|aos|soa)
copy memory ^copy
transpose transpose ^transpose
reduce shared_compute ^reduce
stencil constant ^stencil_constant
spill shared_compute ^spill"
SIZE=--sample-size
if [ "${1:-}" = "--full" ]; then
    SIZE=
    RES=$WORK/h200_full && mkdir -p "$RES"
    CAPTURES="full_stride2 coalescing ^strided<2>
full_stride4 coalescing ^strided<4>
full_stride8 coalescing ^strided<8>
full_stride16 coalescing ^strided<16>
full_stride32 coalescing ^strided<32>
full_aos coalescing ^aos
full_copy memory ^copy"
fi

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    # COMMIT: written beside a copy of the tree that is not a checkout of it
    echo "commit: $(cat "$ROOT/COMMIT" 2>/dev/null || git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "host: $(hostname)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.total --format=csv
    nvcc --version | tail -2
    echo "capture build: nvcc $NVCC_FLAGS -DDCU_CAPTURE -x cu kernels/NAME.hip -o NAME_capture"
    echo "dcutrace: cmake -S traces/capture/nvidia -B build-capture && cmake --build build-capture"
    echo "capture: dcutrace --kernel REGEX -o GROUP.trace --times capture_GROUP.csv -- ./NAME_capture $SIZE --once"
    echo "groups:"
    echo "$CAPTURES"
} >"$RES/provenance.txt" 2>&1
cat "$RES/provenance.txt"

echo "== dcutrace" | tee "$RES/build.log"
if cmake -S "$ROOT/traces/capture/nvidia" -B "$WORK/capture" >>"$RES/build.log" 2>&1 &&
    cmake --build "$WORK/capture" -j"$(nproc)" >>"$RES/build.log" 2>&1; then
    DCUTRACE=$WORK/capture/dcutrace
else
    echo "dcutrace build FAILED"; tail -40 "$RES/build.log"; exit 1
fi
for name in $(echo "$CAPTURES" | awk '{print $2}' | sort -u); do
    nvcc $NVCC_FLAGS -DDCU_CAPTURE -x cu "kernels/$name.hip" -o "$BIN/${name}_capture" >>"$RES/build.log" 2>&1 &
done
wait
: >"$RES/capture.log"
total=0
limit=$((63 << 20))
while read -r group name regex; do
    [ -x "$BIN/${name}_capture" ] || { echo "no capture build of $name" | tee -a "$RES/capture.log"; continue; }
    echo "== $group ($name, $regex)" >>"$RES/capture.log"
    start=$(date +%s%N)
    timeout 300 "$DCUTRACE" --kernel "$regex" -o "$WORK/$group.trace" --times "$RES/capture_$group.csv" -- \
        "$BIN/${name}_capture" $SIZE --once >>"$RES/capture.log" 2>&1
    rc=$?
    size=$(stat -c %s "$WORK/$group.trace" 2>/dev/null || echo 0)
    echo "rc $rc, wall $((($(date +%s%N) - start) / 1000000)) ms, $size bytes" >>"$RES/capture.log"
    if [ "$rc" = 0 ] && [ "$size" -gt 0 ] && [ "$size" -le $((16 << 20)) ] && [ $((total + size)) -le $limit ]; then
        mv "$WORK/$group.trace" "$OUT/" && total=$((total + size))
    else
        echo "$group.trace not returned (rc $rc, $size bytes, $total returned so far)" >>"$RES/capture.log"
    fi
    tail -2 "$RES/capture.log"
    tar -C "$WORK" -cf "$OUT/results.tar" "$(basename "$RES")"  # so far: kept should the call run out of time
done <<<"$CAPTURES"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv >>"$RES/provenance.txt" 2>&1
tar -C "$WORK" -cf "$OUT/results.tar" "$(basename "$RES")"
grep -v "warp instructions (" "$RES/capture.log" | tail -40; cat "$RES"/capture_*.csv
ls -la "$OUT"
