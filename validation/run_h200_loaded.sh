#!/usr/bin/env bash
# One device call: DRAM load latency under load (kernels/loaded_latency.hip):
# a one-thread chase through 2,048 random lines of 1 GiB while 0 to 8 x SMs
# blocks stream reads. Writes $OUT/loaded.txt, sass.txt, provenance.txt.
set -u
cd "$(dirname "$0")" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source common/provenance.sh
nvcc -O3 -arch=sm_90 -x cu kernels/loaded_latency.hip -o /tmp/loaded_latency || exit 1
cuobjdump -sass /tmp/loaded_latency >"$OUT/sass.txt"
/tmp/loaded_latency | tee "$OUT/loaded.txt"
provenance "nvcc -O3 -arch=sm_90 -x cu kernels/loaded_latency.hip -o loaded_latency" "./loaded_latency (clock64 and events, no profiler)" >"$OUT/provenance.txt"
