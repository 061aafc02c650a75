#!/usr/bin/env bash
# The DCU (or any AMD GPU) counterpart of run_h200.sh, for a DCU owner: build
# with hipcc, time each variant, read counters with rocprof. NOT RUN HERE: we
# have no DCU; the counter names are the gfx9 ones and may need adjusting to
# the card's rocprof. Writes results.csv, rocprof/*.csv, build.log,
# provenance.txt to $OUT.
set -uo pipefail
OUT=${OUT:-out}
ARCH=${ARCH:-gfx906}
mkdir -p "$OUT/rocprof"
cd "$(dirname "$0")"
BIN=$(mktemp -d)
cat >"$BIN/counters.txt" <<'C'
pmc: SQ_WAVES SQ_INSTS_LDS SQ_LDS_BANK_CONFLICT SQ_INSTS_SMEM
pmc: TCP_TOTAL_CACHE_ACCESSES_sum TCP_TCC_READ_REQ_sum
pmc: TCC_HIT_sum TCC_MISS_sum TCC_EA_RDREQ_sum TCC_EA_WRREQ_sum
pmc: GRBM_GUI_ACTIVE SQ_WAIT_INST_LDS
C
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
    rocm-smi --showproductname --showclocks 2>&1 || true
    hipcc --version 2>&1 | head -3
    echo "build: hipcc -O3 --offload-arch=$ARCH kernels/NAME.hip -o NAME"
    echo "counters: rocprof -i counters.txt -o rocprof/NAME.csv ./NAME --once"
} >"$OUT/provenance.txt"
echo "family,variant,size,median_ms,bytes" >"$OUT/results.csv"
: >"$OUT/build.log"
for src in kernels/*.hip; do
    name=$(basename "$src" .hip)
    hipcc -O3 --offload-arch="$ARCH" -save-temps=obj "$src" -o "$BIN/$name" >>"$OUT/build.log" 2>&1 || continue
    "$BIN/$name" | awk '/^RESULT/ {print $2","$3","$4","$5","$6}' >>"$OUT/results.csv"
    rocprof -i "$BIN/counters.txt" -o "$OUT/rocprof/$name.csv" "$BIN/$name" --once >>"$OUT/build.log" 2>&1
done
