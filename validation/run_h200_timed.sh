#!/usr/bin/env bash
# One device call for a microbenchmark that times itself (clock64, events; no
# profiler): build kernels/NAME.hip, run it. Writes $OUT/NAME.txt, sass.txt,
# provenance.txt. Usage: validation/run_h200_timed.sh NAME   (loaded_latency, l1_misses)
set -u
NAME=${1:?usage: run_h200_timed.sh NAME}
cd "$(dirname "$0")" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source common/provenance.sh
nvcc -O3 -arch=sm_90 -x cu "kernels/$NAME.hip" -o "/tmp/$NAME" || exit 1
cuobjdump -sass "/tmp/$NAME" >"$OUT/sass.txt"
"/tmp/$NAME" | tee "$OUT/$NAME.txt"
provenance "nvcc -O3 -arch=sm_90 -x cu kernels/$NAME.hip -o $NAME" "./$NAME (clock64 and events, no profiler)" >"$OUT/provenance.txt"
