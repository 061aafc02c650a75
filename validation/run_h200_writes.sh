#!/usr/bin/env bash
# One device call: the write_stream kernel under ncu (DRAM bytes written per buffer size). Writes $OUT/times.txt, ncu.csv, provenance.txt.
set -u
cd "$(dirname "$0")"
export PATH=/usr/local/cuda/bin:$PATH
nvcc -O3 -arch=sm_90 -x cu kernels/write_stream.hip -o /tmp/ws || exit 1
/tmp/ws | tee $OUT/times.txt
ncu --clock-control none --csv --metrics dram__bytes_write.sum,dram__bytes_read.sum,gpc__cycles_elapsed.max,lts__t_sectors_op_write.sum,lts__t_sector_hit_rate.pct /tmp/ws --once > $OUT/ncu.csv 2>&1
grep -E "dram__bytes_write|dram__bytes_read" $OUT/ncu.csv | awk -F'","' '{print $5, $13, $15}'
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; nvcc --version | tail -1; ncu --version | tail -1; echo "commit: $(cat RUN_COMMIT 2>/dev/null)"; echo "ncu --clock-control none --csv --metrics dram__bytes_write.sum,dram__bytes_read.sum,gpc__cycles_elapsed.max,lts__t_sectors_op_write.sum,lts__t_sector_hit_rate.pct ./write_stream --once"; } > $OUT/provenance.txt
