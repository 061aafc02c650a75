#!/usr/bin/env bash
# One device call: kernels/first_touch.hip on its own (clock64, no profiler),
# then its `ncu` mode under Nsight Compute with the suite's cache control.
# Writes $OUT/first_touch.txt, first_touch_ncu.txt, sass.txt, provenance.txt.
set -u
cd "$(dirname "$0")" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source common/provenance.sh
nvcc -O3 -arch=sm_90 -x cu kernels/first_touch.hip -o /tmp/first_touch || exit 1
cuobjdump -sass /tmp/first_touch >"$OUT/sass.txt"
/tmp/first_touch | tee "$OUT/first_touch.txt"
ncu --cache-control all --metrics gpc__cycles_elapsed.max /tmp/first_touch ncu >"$OUT/first_touch_ncu.txt" 2>&1
grep TOUCH "$OUT/first_touch_ncu.txt"
provenance "nvcc -O3 -arch=sm_90 -x cu kernels/first_touch.hip -o first_touch" \
    "./first_touch; ncu --cache-control all --metrics gpc__cycles_elapsed.max ./first_touch ncu" >"$OUT/provenance.txt"
