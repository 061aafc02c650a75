#!/usr/bin/env bash
# One device call that breaks the H200's L2 traffic down by source unit
# (SMs' TEX path, the fabric between the two L2 partitions), operation and
# lookup result, for the memory and coalescing kernels at --small size: the
# ground truth for how lts__t_sector_hit_rate counts. Writes $OUT/query.txt
# (the lts__ metrics this ncu has), $OUT/metrics.txt, $OUT/probe_NAME.csv,
# $OUT/provenance.txt. Usage: validation/run_h200_l2probe.sh
set -u
cd "$(dirname "$0")" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source common/provenance.sh
ncu --query-metrics --chip gh100 >"$OUT/query.txt" 2>&1
# Sector and request counts of the L2 tag stage, split by source, op and result.
awk '{print $1}' "$OUT/query.txt" |
    grep -E '^lts__t_(sectors|requests)(_srcunit_(tex|ltcfabric|l1|fbp|gpc))?(_op_(read|write|atom|red))?(_lookup_(hit|miss))?$' |
    sed 's/$/.sum/' >"$OUT/metrics.txt"
echo "lts__t_sector_hit_rate.pct" >>"$OUT/metrics.txt"
echo "dram__bytes_read.sum" >>"$OUT/metrics.txt"
echo "dram__bytes_write.sum" >>"$OUT/metrics.txt"
METRICS=$(paste -sd, "$OUT/metrics.txt")
echo "$(wc -l <"$OUT/metrics.txt") metrics"
for NAME in memory coalescing; do
    nvcc -O3 -arch=sm_90 -x cu "kernels/$NAME.hip" -o "/tmp/$NAME" 2>&1 | tail -3
    ncu --clock-control none --csv --metrics "$METRICS" "/tmp/$NAME" --small --once >"$OUT/probe_$NAME.csv" 2>"$OUT/probe_$NAME.err"
    echo "$NAME: $(grep -c '^"' "$OUT/probe_$NAME.csv") counter lines"
done
provenance "nvcc -O3 -arch=sm_90 -x cu kernels/NAME.hip -o NAME" \
    "ncu --clock-control none --csv --metrics \$(metrics.txt) ./NAME --small --once" >"$OUT/provenance.txt"
