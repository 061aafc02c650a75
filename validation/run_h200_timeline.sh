#!/usr/bin/env bash
# One device call: the block timeline of a short streaming kernel
# (kernels/block_timeline.hip: per wave, its SM, start time and cycles to its
# load's data; 6 runs each of the soa kernel, its load alone, a nearly empty one, and a 64 MiB write), their
# cycles under ncu, and the sustained DRAM bandwidth (kernels/dram_bandwidth.hip,
# median of 21). Writes to $OUT: timeline_{soa,load,empty,write}.csv.gz,
# times.txt, ncu.csv, bandwidth.txt, provenance.txt.
set -u
cd "$(dirname "$0")" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source common/provenance.sh
METRICS=gpc__cycles_elapsed.max,sm__cycles_elapsed.avg,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
nvcc -O3 -arch=sm_90 -x cu kernels/block_timeline.hip -o /tmp/block_timeline || exit 1
nvcc -O3 -arch=sm_90 -x cu kernels/dram_bandwidth.hip -o /tmp/dram_bandwidth || exit 1
cuobjdump -sass /tmp/block_timeline >"$OUT/sass.txt"
/tmp/block_timeline "$OUT" | tee "$OUT/times.txt" || exit 1
gzip -9 "$OUT"/timeline_*.csv
T=$(mktemp -d)
ncu --clock-control none --csv --metrics "$METRICS" /tmp/block_timeline "$T" >"$OUT/ncu.csv" 2>&1
/tmp/dram_bandwidth | tee "$OUT/bandwidth.txt"
provenance "nvcc -O3 -arch=sm_90 -x cu kernels/block_timeline.hip (and dram_bandwidth.hip)" \
    "./block_timeline OUT; ncu --clock-control none --csv --metrics $METRICS ./block_timeline TMP; ./dram_bandwidth" >"$OUT/provenance.txt"
