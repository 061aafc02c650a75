#!/usr/bin/env bash
# Builds merge_probe.cu's cubin for sm_90 the way dcucc's plain build does
# (clang's PTX, then ptxas), on the build machine.
# Usage (repository root, after scripts/build.sh): traces/capture/llvm/probe/build.sh [OUTDIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../../.." && pwd)
OUTDIR=${1:-$ROOT/validation/dcucc-bin}
CUDA=${CUDA_HOME:-/usr/local/cuda}
CFG=$(ls "$ROOT"/build/dcucc-llvm*/dcucc.json | tail -1)
CLANG=$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["clang"])' "$CFG")++
STUB=$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["stub_include"])' "$CFG")
mkdir -p "$OUTDIR"
"$CLANG" --cuda-path="$CUDA" -x cuda -isystem "$STUB" -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 \
    --cuda-device-only -O3 -S "$ROOT/traces/capture/llvm/probe/merge_probe.cu" -o "$OUTDIR/merge_probe.ptx"
"$CUDA/bin/ptxas" -arch=sm_90 "$OUTDIR/merge_probe.ptx" -o "$OUTDIR/merge_probe.cubin"
"$CLANG" --version | head -1 >"$OUTDIR/merge_probe.txt"
echo "built $OUTDIR/merge_probe.cubin"
