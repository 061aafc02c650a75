#!/usr/bin/env bash
# CI (no GPU): proves the validation kernels are real HIP by compiling each for
# gfx906 with Debian's hipcc, and for sm_90 with nvcc where CUDA is installed.
# One compiler per core: the check is CI's longest test.
set -euo pipefail
cd "$(dirname "$0")"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export T
srcs=(kernels/*.hip kernels/apps/*.hip)
printf '%s\n' "${srcs[@]}" |
    xargs -P "$(nproc)" -I{} bash -c 'hipcc --offload-arch=gfx906 -c "$1" -o "$T/$(basename "$1" .hip).o" || { echo "FAIL $1"; exit 255; }' _ {}
echo "hipcc gfx906: ${#srcs[@]} kernels compiled"
if [ -x /usr/local/cuda/bin/nvcc ]; then
    printf '%s\n' "${srcs[@]}" |
        xargs -P "$(nproc)" -I{} bash -c '/usr/local/cuda/bin/nvcc -arch=sm_90 -x cu -c "$1" -o "$T/nv.$(basename "$1" .hip).o" || { echo "FAIL $1"; exit 255; }' _ {}
    echo "nvcc sm_90: ${#srcs[@]} kernels compiled"
else
    echo "nvcc: not installed here, sm_90 compile skipped"
fi
