#!/usr/bin/env bash
# One device call: the SASS of traces/capture/llvm/probe/merge_probe.cu (built
# here by traces/capture/llvm/probe/build.sh into validation/dcucc-bin), to read
# which accesses ptxas joins. Writes $OUT/merge_probe.sass and $OUT/provenance.txt.
# Usage (repository root): validation/run_h200_merge_probe.sh
set -uo pipefail
OUT=${OUT:-out}
mkdir -p "$OUT"
BIN=$(cd "$(dirname "$0")" && pwd)/dcucc-bin
export PATH=/usr/local/cuda/bin:$PATH
{
    date -u
    nvidia-smi --query-gpu=name,driver_version --format=csv
    nvdisasm --version | tail -1
    cat "$BIN/merge_probe.txt"
    echo "command: nvdisasm -c merge_probe.cubin"
} >"$OUT/provenance.txt" 2>&1
nvdisasm -c "$BIN/merge_probe.cubin" >"$OUT/merge_probe.sass"
echo "$(grep -cE 'LDS|STS|LDL|STL|LDG|STG' "$OUT/merge_probe.sass") memory instructions"
