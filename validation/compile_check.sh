#!/usr/bin/env bash
# CI (no GPU): proves the validation kernels are real HIP by compiling each for
# gfx906 with Debian's hipcc, and for sm_90 with nvcc where CUDA is installed.
set -euo pipefail
cd "$(dirname "$0")"
T=$(mktemp -d)
n=0
for src in kernels/*.hip kernels/apps/*.hip; do
    hipcc --offload-arch=gfx906 -c "$src" -o "$T/$(basename "$src" .hip).o"
    n=$((n + 1))
done
echo "hipcc gfx906: $n kernels compiled"
if [ -x /usr/local/cuda/bin/nvcc ]; then
    for src in kernels/*.hip kernels/apps/*.hip; do /usr/local/cuda/bin/nvcc -arch=sm_90 -x cu -c "$src" -o "$T/nv.o"; done
    echo "nvcc sm_90: $n kernels compiled"
else
    echo "nvcc: not installed here, sm_90 compile skipped"
fi
