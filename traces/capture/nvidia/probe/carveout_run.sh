#!/usr/bin/env bash
# dcutrace's `kernel ... carveout` on the GPU machine: builds dcutrace and carveout_probe.cu, captures
# the probe, and keeps the trace's kernel lines beside what each should say. Everything goes to $OUT
# (carveout.log, kernels.txt). Usage, from the repository root: OUT=DIR traces/capture/nvidia/probe/carveout_run.sh
set -uo pipefail
OUT=${OUT:?set OUT}
export PATH=/usr/local/cuda/bin:$PATH
P=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$P/../../../.." && pwd)
B=$(mktemp -d)
LOG=$OUT/carveout.log
step() { echo "== $*" >>"$LOG"; "$@" >>"$LOG" 2>&1; echo "-- exit $?" >>"$LOG"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >>"$LOG" 2>&1
step cmake -S "$ROOT/traces/capture/nvidia" -B "$B/cap"
step cmake --build "$B/cap" -j8
step nvcc -O3 -arch=sm_90 -o "$B/carveout_probe" "$P/carveout_probe.cu"
step "$B/cap/dcutrace" -o "$B/probe.trace" --host-log "$OUT/host_log.txt" -- "$B/carveout_probe"
# The trace comes back binary: `dcusim trace dump` on the build machine gives its kernel lines.
cp "$B/probe.trace" "$OUT/carveout_probe.trace"
echo "expected: lds 4096 each (the 4 KiB array, not the 1 KiB the cubin reserves); carveout: tile<0> none, tile<1> 0, tile<2> 100, tile<3> none, tile<2> (cudaLaunchKernelExC) 100" >"$OUT/kernels.txt"
ls -la "$OUT"
