#!/usr/bin/env bash
# One device call for a microbenchmark of the suite: build kernels/NAME.hip,
# time it, and read its counters with ncu (--clock-control none, one launch
# per variant). Writes $OUT/times.txt, ncu.csv, provenance.txt.
# Usage: validation/run_h200_micro.sh NAME [REPEAT]   (write_stream, launch, l1_lines, local_lines, l2_capacity,
# l1_tags, tlb, lds_latency, alu_latency, const_latency; REPEAT: profile each variant that many times in a row, --repeat)
# EXTRA_METRICS (environment): more ncu metrics, comma-separated. NCU_OPTIONS: more ncu options
# (store_reuse: "--cache-control none -k regex:measured").
set -u
NAME=${1:?usage: run_h200_micro.sh NAME [REPEAT]}
RUNS="--once"
[ -n "${2:-}" ] && RUNS="--repeat $2"
cd "$(dirname "$0")" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
source common/provenance.sh
METRICS=dram__bytes_write.sum,dram__bytes_read.sum,gpc__cycles_elapsed.max,sm__cycles_elapsed.avg,lts__t_sectors_op_write.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum${EXTRA_METRICS:+,$EXTRA_METRICS}
nvcc -O3 -arch=sm_90 -x cu "kernels/$NAME.hip" -o "/tmp/$NAME" || exit 1
cuobjdump -sass "/tmp/$NAME" >"$OUT/sass.txt"
"/tmp/$NAME" | tee "$OUT/times.txt"
ncu --clock-control none ${NCU_OPTIONS:-} --csv --metrics "$METRICS" "/tmp/$NAME" $RUNS >"$OUT/ncu.csv" 2>&1
grep -E "gpc__cycles_elapsed|dram__bytes_write" "$OUT/ncu.csv" | awk -F'","' '{print $5, $9, $13, $15}'
provenance "nvcc -O3 -arch=sm_90 -x cu kernels/$NAME.hip -o $NAME" \
    "ncu --clock-control none ${NCU_OPTIONS:-} --csv --metrics $METRICS ./$NAME $RUNS" >"$OUT/provenance.txt"
