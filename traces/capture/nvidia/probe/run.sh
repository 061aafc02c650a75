#!/usr/bin/env bash
# The local-memory probe on the GPU machine: builds the counting tool and the
# probe kernels, runs them under it (all classes, then the local class alone),
# and runs the test set's regspill capture build under it. Everything it keeps
# goes to $OUT (probe.log, the SASS). Usage, from the repository root: OUT=DIR traces/capture/nvidia/probe/run.sh
set -uo pipefail
OUT=${OUT:?set OUT}
export PATH=/usr/local/cuda/bin:$PATH
S=/usr/local/cuda/compute-sanitizer
P=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$P/../../../.." && pwd)
B=$(mktemp -d)
LOG=$OUT/probe.log
step() { echo "== $*" >>"$LOG"; "$@" >>"$LOG" 2>&1; echo "-- exit $?" >>"$LOG"; }
step nvcc --fatbin --compile-as-tools-patch -O3 -arch=sm_90 -I$S/include -I$P -o $B/probe_patch.fatbin $P/probe_patch.cu
step g++ -O2 -std=c++17 -shared -fPIC -I$S/include -I/usr/local/cuda/include -I$P $P/probe_tool.cpp \
    -L$S -lsanitizer-public -Wl,-rpath,$S -o $B/libprobe.so
step nvcc -O3 -arch=sm_90 -lineinfo -Xptxas -v -c $P/local_probe.cu -o $B/a.o
step nvcc -O3 -arch=sm_90 -lineinfo -Xptxas -v -maxrregcount=32 -c $P/local_probe_maxreg.cu -o $B/b.o
step nvcc -arch=sm_90 $B/a.o $B/b.o -o $B/local_probe
step nvcc -O3 -arch=sm_90 -lineinfo -Xptxas -v -DDCU_CAPTURE -x cu $ROOT/validation/kernels/apps/regspill.hip -o $B/regspill_capture
cuobjdump -sass $B/local_probe >$OUT/local_probe.sass 2>&1
cuobjdump -sass $B/regspill_capture >$OUT/regspill_capture.sass 2>&1
step cuobjdump -res-usage $B/local_probe $B/regspill_capture
probe() { CUDA_MODULE_LOADING=EAGER PROBE_PATCH=$B/probe_patch.fatbin LD_PRELOAD=$B/libprobe.so "$@"; }
step probe $B/local_probe
PROBE_CLASSES=l step probe $B/local_probe
step probe $B/regspill_capture --small --once
ls -la $OUT
