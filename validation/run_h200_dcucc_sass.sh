#!/usr/bin/env bash
# One device call: the SASS of the suite's plain clang build (validation/dcucc-bin/NAME_plain,
# from build_dcucc_h200.sh), as dcucc's host runtime reads it (`nvdisasm -c -g` of each
# embedded cubin), so that the matching of dcucc's sites to machine code can be worked on
# where there is no nvdisasm. Writes $OUT/dcucc_sass.tar (sass/NAME.sass, provenance.txt).
# Usage (repository root): validation/run_h200_dcucc_sass.sh
set -uo pipefail
OUT=${OUT:-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
BIN=$(cd "$(dirname "$0")" && pwd)/dcucc-bin
export PATH=/usr/local/cuda/bin:$PATH
WORK=$(mktemp -d)
mkdir -p "$WORK/sass"
{
    date -u
    nvidia-smi --query-gpu=name,driver_version --format=csv
    nvdisasm --version | tail -1
    cat "$BIN/BUILD.txt"
    echo "command: cuobjdump -xelf all NAME_plain; nvdisasm -c -g EACH.cubin"
} >"$WORK/sass/provenance.txt" 2>&1
for prog in "$BIN"/*_plain; do
    name=$(basename "$prog" _plain)
    dir=$(mktemp -d)
    (cd "$dir" && cuobjdump -xelf all "$prog" >/dev/null) || { echo "$name: cuobjdump failed"; continue; }
    for cubin in "$dir"/*.cubin; do nvdisasm -c -g "$cubin"; done >"$WORK/sass/$name.sass"
    echo "$name: $(grep -c '^\s*/\*[0-9a-f]*\*/' "$WORK/sass/$name.sass") instructions"
done
tar -C "$WORK" -cf "$OUT/dcucc_sass.tar" sass
