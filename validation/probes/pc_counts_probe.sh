#!/usr/bin/env bash
# One device call: what ncu's source counters give per SASS instruction (for loops the Sanitizer cannot
# count), how nvdisasm prints control words, and the suite's capture builds' SASS with control words.
# Usage (on the GPU machine, from the repository root): OUT=DIR validation/probes/pc_counts_probe.sh
set -uo pipefail
FINAL=${OUT:?}
OUT=$(mktemp -d)
export PATH=/usr/local/cuda/bin:$PATH
W=$(mktemp -d)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd validation
CAP="nvcc -O3 -arch=sm_90 -lineinfo -DDCU_CAPTURE -x cu"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader; nvcc --version | tail -2; ncu --version; } > "$OUT/env.txt" 2>&1
for s in lds_bank transpose constant coalescing memory shared_compute; do
    $CAP kernels/$s.hip -o $W/$s 2>>"$OUT/build.log" &
done
for s in regspill; do
    $CAP kernels/apps/$s.hip -o $W/$s 2>>"$OUT/build.log" &
done
wait
for s in lds_bank transpose constant coalescing memory shared_compute; do
    cuobjdump -sass $W/$s > "$OUT/sass_$s.txt" 2>&1
done
ncu --help > "$OUT/ncu_help.txt" 2>&1
cd $W
cuobjdump -xelf all regspill > "$OUT/xelf.log" 2>&1
cub=$(ls $W/*.cubin 2>/dev/null | head -1)
nvdisasm -c -g -hex "$cub" 2>&1 | head -80 > "$OUT/nvdisasm_hex_head.txt"
nvdisasm -c -g -hex -print-raw "$cub" 2>&1 | head -40 > "$OUT/nvdisasm_hexraw_head.txt"
for s in regspill; do
    t0=$(date +%s.%N)
    timeout 240 ncu --clock-control none --section SourceCounters -f -o $W/pc_$s ./$s --small --once > "$OUT/ncu_$s.log" 2>&1
    echo "$s: ncu rc $? $(echo "$(date +%s.%N) - $t0" | bc) s" >> "$OUT/times.txt"
    ncu -i $W/pc_$s.ncu-rep --page source --csv --print-source sass > "$OUT/src_sass_$s.csv" 2> "$OUT/src_sass_$s.err"
    echo "$s page source rc $?" >> "$OUT/times.txt"
done
ncu -i $W/pc_regspill.ncu-rep --page source --print-source sass 2>&1 | head -200 > "$OUT/src_sass_regspill_text.txt"
# dcutrace with the counts, on regspill
cmake -S $ROOT/traces/capture/nvidia -B $W/dt > "$OUT/dcutrace_build.log" 2>&1 && cmake --build $W/dt -j16 >> "$OUT/dcutrace_build.log" 2>&1
for s in regspill; do
    python3 $ROOT/validation/ncu_pc_counts.py "$OUT/src_sass_$s.csv" "$OUT/pccounts_$s.csv" > "$OUT/convert_$s.log" 2>&1
done
$W/dt/dcutrace -o "$OUT/regspill_counts.trace" --pc-counts "$OUT/pccounts_regspill.csv" -- ./regspill --small --once > "$OUT/capture_regspill_counts.log" 2>&1
$W/dt/dcutrace -o "$OUT/regspill_plain.trace" -- ./regspill --small --once > "$OUT/capture_regspill_plain.log" 2>&1
ncu -i $W/pc_regspill.ncu-rep --page details --csv > "$OUT/details_regspill.csv" 2>&1
ncu -i $W/pc_regspill.ncu-rep --page raw --csv --print-metric-instances values 2>&1 | head -c 4000000 > "$OUT/raw_regspill.csv"
cp $W/pc_regspill.ncu-rep "$OUT/" 2>/dev/null
ls -la "$OUT"
[ -s "$OUT/pccounts_regspill.csv" ] && grep -q "loops with nothing captured went round" "$OUT/capture_regspill_counts.log" && echo "pc counts: converted"
tar -C "$OUT" -czf "$FINAL/probe.tar.gz" .
ls -la "$FINAL"
