#!/usr/bin/env bash
# One device call on the H200: builds validation/kernels/transfers.hip with nvcc (sm_90) and runs
# it at full size (4 KiB to 1 GiB copies of every host memory kind, mapped-memory kernels, the
# stream-overlap pipeline). Writes $OUT/transfers.txt (its RESULT lines) and $OUT/provenance.txt.
# Usage (repository root): validation/run_h200_transfers.sh
set -uo pipefail
OUT=${OUT:-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PATH=/usr/local/cuda/bin:$PATH
WORK=$(mktemp -d)
FLAGS="-O3 -arch=sm_90 -lineinfo"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "host: $(hostname), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current --format=csv
    nvcc --version | tail -2
    echo "build: nvcc $FLAGS -x cu validation/kernels/transfers.hip -o transfers"
    echo "run: ./transfers"
} >"$OUT/provenance.txt" 2>&1
nvcc $FLAGS -x cu "$ROOT/validation/kernels/transfers.hip" -o "$WORK/transfers" >"$OUT/build.log" 2>&1 || { echo "nvcc FAILED"; cat "$OUT/build.log"; exit 1; }
"$WORK/transfers" >"$OUT/transfers.txt" 2>&1
echo "rc $?" >>"$OUT/provenance.txt"
cat "$OUT/provenance.txt"
tail -5 "$OUT/transfers.txt"
