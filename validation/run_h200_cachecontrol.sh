#!/usr/bin/env bash
# One device call: the suite's spill kernel (spill_phases.hip) and the
# coalescing/layout kernels (coalescing.hip --small) profiled with ncu's cache
# control on (the suite's measurement: caches flushed before each profiled
# launch) and off, three launches each, to see what the flush costs each kernel.
# Writes $OUT/ncu_all.csv, ncu_none.csv, provenance.txt.
set -u
cd "$(dirname "$0")" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source common/provenance.sh
FLAGS="-O3 -arch=sm_90"
METRICS=gpc__cycles_elapsed.max,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct
for name in spill_phases coalescing; do nvcc $FLAGS -x cu "kernels/$name.hip" -o "/tmp/$name" || exit 1; done
for cc in all none; do
    : >"$OUT/ncu_$cc.csv"
    ncu --clock-control none --cache-control $cc --csv --metrics "$METRICS" /tmp/spill_phases --repeat 3 >>"$OUT/ncu_$cc.csv" 2>&1
    ncu --clock-control none --cache-control $cc --csv --metrics "$METRICS" /tmp/coalescing --small --repeat 3 >>"$OUT/ncu_$cc.csv" 2>&1
done
provenance "nvcc $FLAGS -x cu kernels/NAME.hip -o NAME" \
    "ncu --clock-control none --cache-control all|none --csv --metrics $METRICS ./spill_phases --repeat 3; ./coalescing --small --repeat 3" >"$OUT/provenance.txt"
