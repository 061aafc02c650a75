#!/usr/bin/env bash
# One device call: the L1 each suite kernel gets on the H200 and how its local
# and global sectors fare there. Builds every suite program as run_h200.sh does
# and reads, per kernel at --small size (ncu, one launch each): the
# shared-memory carve-out the driver chose (launch__shared_mem_config_size),
# the block's shared memory, and the L1's lookup hits and misses split by
# space and direction. Writes $OUT/ncu_l1config.csv, provenance.txt.
set -u
cd "$(dirname "$0")" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source common/provenance.sh
METRICS=launch__shared_mem_config_size,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,\
launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,launch__registers_per_thread,\
l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum,\
l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_miss.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,\
l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.per_cycle_active,gpc__cycles_elapsed.max
FLAGS="-O3 -arch=sm_90 -lineinfo"
: >"$OUT/ncu_l1config.csv"
for name in lds_bank transpose constant coalescing memory shared_compute; do
    nvcc $FLAGS -x cu "kernels/$name.hip" -o "/tmp/$name" || continue
    echo "== $name" >>"$OUT/ncu_l1config.csv"
    ncu --clock-control none --csv --metrics "$METRICS" "/tmp/$name" --small --once >>"$OUT/ncu_l1config.csv" 2>&1
done
provenance "nvcc $FLAGS -x cu kernels/NAME.hip -o NAME" "ncu --clock-control none --csv --metrics $METRICS ./NAME --small --once" >"$OUT/provenance.txt"
