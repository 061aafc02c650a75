#!/usr/bin/env bash
# Builds the validation suite with dcucc for the H200 (sm_90, clang's CUDA
# path), on the build machine: the device machine has no clang. The programs
# link CUDA's runtime statically, so they run there as they are. NAME_plain is
# the same build without instrumentation (dcucc --dcucc-plain): the one measured.
# Usage (repository root, after scripts/build.sh): validation/build_dcucc_h200.sh [OUTDIR]
# OUTDIR defaults to validation/dcucc-bin (git-ignored; carry it to the device).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DCUCC=${DCUCC:-$ROOT/build/dcucc}
OUTDIR=${1:-$ROOT/validation/dcucc-bin}
PROGRAMS=${PROGRAMS:-"lds_bank transpose constant coalescing memory shared_compute"}
mkdir -p "$OUTDIR"
cd "$ROOT/validation"
for name in $PROGRAMS; do
    echo "== $name"
    "$DCUCC" -O3 --cuda-gpu-arch=sm_90 -gline-tables-only "kernels/$name.hip" -o "$OUTDIR/$name"
    "$DCUCC" --dcucc-plain -O3 --cuda-gpu-arch=sm_90 -gline-tables-only "kernels/$name.hip" -o "$OUTDIR/${name}_plain"
done
{
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) at $(git -C "$ROOT" rev-parse --short HEAD)"
    echo "command: dcucc -O3 --cuda-gpu-arch=sm_90 -gline-tables-only kernels/NAME.hip -o NAME"
    echo "plain: dcucc --dcucc-plain -O3 --cuda-gpu-arch=sm_90 -gline-tables-only kernels/NAME.hip -o NAME_plain"
    "$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["clang"])' "$(ls "$ROOT"/build/dcucc-llvm*/dcucc.json | tail -1)")" --version | head -1
} >"$OUTDIR/BUILD.txt"
echo "built $(echo $PROGRAMS | wc -w) programs into $OUTDIR"
