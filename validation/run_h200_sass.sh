#!/usr/bin/env bash
# One device call: the SASS of every program of the suite, built as
# run_h200.sh builds it (nvcc -O3 -arch=sm_90 -lineinfo), and the ALU latency
# chains (kernels/alu_latency.hip) with their SASS. Writes $OUT/sass_NAME.txt
# per program, alu_times.txt, alu_sass.txt, provenance.txt.
set -u
cd "$(dirname "$0")" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source common/provenance.sh
for name in lds_bank transpose constant coalescing memory shared_compute; do
    nvcc -O3 -arch=sm_90 -lineinfo -x cu "kernels/$name.hip" -o "/tmp/$name" || exit 1
    cuobjdump -sass "/tmp/$name" | grep -E "Function :|^\s+/\*[0-9a-f]{4}\*/" >"$OUT/sass_$name.txt"
done
nvcc -O3 -arch=sm_90 -x cu kernels/alu_latency.hip -o /tmp/alu_latency || exit 1
cuobjdump -sass /tmp/alu_latency | grep -E "Function :|^\s+/\*[0-9a-f]{4}\*/" >"$OUT/alu_sass.txt"
/tmp/alu_latency | tee "$OUT/alu_times.txt"
provenance "nvcc -O3 -arch=sm_90 -lineinfo -x cu kernels/NAME.hip -o NAME; cuobjdump -sass NAME" \
    "./alu_latency (clock64)" >"$OUT/provenance.txt"
