#!/usr/bin/env bash
# One device call: kernels/l1_geometry.hip, timed with clock64 (l1_geometry.txt),
# then each of its kernel variants once under ncu for the shared-memory
# carve-out the driver chose for it (ncu_carveout.csv). Also sass.txt,
# provenance.txt.
set -u
cd "$(dirname "$0")" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source common/provenance.sh
FLAGS="-O3 -arch=sm_90"
nvcc $FLAGS -x cu kernels/l1_geometry.hip -o /tmp/l1_geometry || exit 1
cuobjdump -sass /tmp/l1_geometry >"$OUT/sass.txt"
/tmp/l1_geometry >"$OUT/l1_geometry.txt"
METRICS=launch__shared_mem_config_size,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,\
launch__occupancy_limit_shared_mem,launch__registers_per_thread,launch__grid_size,launch__block_size
ncu --clock-control none --csv --metrics "$METRICS" /tmp/l1_geometry --carveout >"$OUT/ncu_carveout.csv" 2>&1
provenance "nvcc $FLAGS -x cu kernels/l1_geometry.hip -o l1_geometry" \
    "./l1_geometry (clock64); ncu --clock-control none --csv --metrics $METRICS ./l1_geometry --carveout" >"$OUT/provenance.txt"
