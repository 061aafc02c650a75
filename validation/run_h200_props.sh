#!/usr/bin/env bash
# One device call: what the runtime and the driver report about the GPU
# (kernels/device_props.hip, `nvidia-smi -q`), so preset values can be checked
# against the device itself. Writes $OUT/device_props.txt, nvidia-smi-q.txt,
# provenance.txt. Usage: validation/run_h200_props.sh
set -u
cd "$(dirname "$0")" || exit 1
nvidia-smi -q >"$OUT/nvidia-smi-q.txt" 2>&1
./run_h200_timed.sh device_props
rm -f "$OUT/sass.txt"  # no kernel: nothing to disassemble
