#!/usr/bin/env bash
# One device call: build the validation kernels with nvcc for sm_90, time each
# variant (events: 2 warm-ups, median of 21), read its hardware counters with
# ncu (--clock-control none, one launch per variant), and record provenance.
# Writes to $OUT (default ./out): results.csv, ncu.csv, build.log, provenance.txt.
# Usage (repository root): validation/run_h200.sh
set -uo pipefail
OUT=${OUT:-out}
mkdir -p "$OUT"
cd "$(dirname "$0")"
export PATH=/usr/local/cuda/bin:$PATH
BIN=$(mktemp -d)
METRICS=gpc__cycles_elapsed.max,sm__cycles_elapsed.avg,smsp__inst_executed.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,\
l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,\
lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,\
idc__requests.sum,idc__requests_lookup_hit.sum,idc__requests_lookup_miss.sum

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "host: $(hostname)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.total --format=csv
    nvcc --version | tail -2
    ncu --version | tail -1
    echo "build: nvcc -O3 -arch=sm_90 -Xptxas -v -x cu kernels/NAME.hip -o NAME"
    echo "time: ./NAME   (RESULT lines: family variant size median_ms bytes)"
    echo "counters: ncu --clock-control none --csv --metrics $METRICS ./NAME --once"
} >"$OUT/provenance.txt" 2>&1

echo "family,variant,size,median_ms,bytes" >"$OUT/results.csv"
: >"$OUT/ncu.csv"
: >"$OUT/build.log"
for src in kernels/*.hip; do
    name=$(basename "$src" .hip)
    echo "== $name" >>"$OUT/build.log"
    nvcc -O3 -arch=sm_90 -Xptxas -v -x cu "$src" -o "$BIN/$name" >>"$OUT/build.log" 2>&1 || { echo "build of $name failed"; continue; }
    "$BIN/$name" | awk '/^RESULT/ {print $2","$3","$4","$5","$6}' >>"$OUT/results.csv"
    echo "== $name" >>"$OUT/ncu.csv"
    ncu --clock-control none --csv --metrics "$METRICS" "$BIN/$name" --once >>"$OUT/ncu.csv" 2>>"$OUT/build.log"
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv >>"$OUT/provenance.txt" 2>&1
echo "done: $(wc -l <"$OUT/results.csv") result lines, $(grep -c '^"' "$OUT/ncu.csv") counter lines"
