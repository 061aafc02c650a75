#!/usr/bin/env bash
# One device call on the H200: `dcusim measure` on a program outside the suite
# (validation/measure/three_kernels.cu, built with nvcc), then the measurement
# is replayed where dcusim is built (dcusim validate DIR --config configs/h200.ini).
# dcusim is built on the build machine and carried in validation/measure-bin
# (the binary and the shared libraries the H200 machine lacks: SystemC, Boost,
# spdlog, fmt); dcutrace is built here as run_h200.sh builds it.
# Writes $OUT/measure.tar (the folder dcusim measure wrote) and $OUT/run.log.
# Usage (repository root): validation/run_h200_measure.sh
set -uo pipefail
OUT=${OUT:-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PATH=/usr/local/cuda/bin:$PATH
WORK=$(mktemp -d)
{
    echo "== build: dcutrace, three_kernels"
    cmake -S "$ROOT/traces/capture/nvidia" -B "$WORK/capture" >/dev/null && cmake --build "$WORK/capture" -j"$(nproc)" >/dev/null || echo "dcutrace build FAILED"
    nvcc -O3 -arch=sm_90 -lineinfo "$ROOT/validation/measure/three_kernels.cu" -o "$WORK/three_kernels" || echo "nvcc FAILED"
    export DCUTRACE=$WORK/capture/dcutrace
    export LD_LIBRARY_PATH=$ROOT/validation/measure-bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    cd "$WORK" || exit 1
    echo "== dcusim measure (the first run)"
    "$ROOT/validation/measure-bin/dcusim" measure -o "$WORK/three_kernels_h200" --config "$ROOT/configs/h200.ini" -- ./three_kernels
    echo "rc $?"
    echo "== error paths on the real tools"
    "$ROOT/validation/measure-bin/dcusim" measure -o "$WORK/fails" --config "$ROOT/configs/h200.ini" -- ./three_kernels_missing
    echo "rc $?"
    "$ROOT/validation/measure-bin/dcusim" measure -o "$WORK/fails2" --config "$ROOT/configs/h200.ini" -- /bin/false
    echo "rc $?"
    ncu --version | tail -1
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader
} >"$OUT/run.log" 2>&1
tar -C "$WORK" -cf "$OUT/measure.tar" three_kernels_h200 fails fails2 2>>"$OUT/run.log"
cat "$OUT/run.log"
