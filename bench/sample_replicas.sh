#!/usr/bin/env bash
# Sampled simulation against the full run (issue 23, acceptance 3) on the 14 kernels of the large
# captures (validation/results/h200-sample), made without a GPU: each is the calibration suite's
# capture of the same kernel (validation/results/h200/traces) grown to the large grid by
# bench/replicate.py, every copy of its workgroups reading and writing the next part of its buffers,
# as the large launch does. They differ from the captures in their addresses only (other buffers'
# places; the captures of one kernel differ so between two machines too). bench/sample_big.sh runs
# each; bench/sample_table.py OUT makes the table. About 25 minutes of one core in full runs; the
# traces (8-16 MB each) and one kernel's text at a time (up to 3 GB) go under $TMPDIR.
# Usage: bench/sample_replicas.sh BUILD_DIR OUT [NAME...]   (NAME: full_aos ... large_stride16; all by default)
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/sample_replicas.sh BUILD_DIR OUT [NAME...]" >&2; exit 2; }
B=$1 OUT=$2
shift 2
[ -x "$B/dcusim" ] || { echo "bench/sample_replicas.sh: no $B/dcusim" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SUITE=$ROOT/validation/results/h200/traces
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
Mi=$((1 << 20)) Gi2=$((2 << 30))
# name | suite trace | kernel | copies | buffers (bench/replicate.py): reads per copy x bytes apart
KERNELS="
full_aos|coalescing|aos(|64|ld:$((16 * Mi)) st:$((4 * Mi))
full_copy|memory|copy(|16|ld:$((64 * Mi)) st:$((64 * Mi))
full_reduce|shared_compute|reduce(|256|ld:$Mi st:4096
full_soa|coalescing|soa(|64|ld:$((4 * Mi)) st:$((4 * Mi))
full_stride1|coalescing|strided<1>|64|ld:$((4 * Mi)):$Gi2 st:$((4 * Mi))
full_stride2|coalescing|strided<2>|64|ld:$((8 * Mi)):$Gi2 st:$((4 * Mi))
full_stride4|coalescing|strided<4>|64|ld:$((16 * Mi)):$Gi2 st:$((4 * Mi))
full_stride8|coalescing|strided<8>|64|ld:$((32 * Mi)):$Gi2 st:$((4 * Mi))
full_stride16|coalescing|strided<16>|64|ld:$((64 * Mi)):$Gi2 st:$((4 * Mi))
full_stride32|coalescing|strided<32>|64|ld:$((128 * Mi)):$Gi2 st:$((4 * Mi))
large_aos|coalescing|aos(|128|ld:$((16 * Mi)) st:$((4 * Mi))
large_soa|coalescing|soa(|128|ld:$((4 * Mi)) st:$((4 * Mi))
large_stride1|coalescing|strided<1>|128|ld:$((4 * Mi)):$Gi2 st:$((4 * Mi))
large_stride16|coalescing|strided<16>|128|ld:$((64 * Mi)):$Gi2 st:$((4 * Mi))
"
for n in "$@"; do
    grep -q "^$n|" <<<"$KERNELS" || { echo "bench/sample_replicas.sh: no kernel named $n" >&2; exit 2; }
done
want=" $* "
traces=()
while IFS='|' read -r name trace kernel copies bufs <&3; do
    [ -n "$name" ] || continue
    [ $# -eq 0 ] || [[ $want == *" $name "* ]] || continue
    [ -f "$T/$trace.txt" ] || "$B/dcusim" trace dump "$SUITE/$trace.trace" >"$T/$trace.txt"
    # shellcheck disable=SC2086  # bufs: one argument per buffer, word-split on purpose
    python3 "$ROOT/bench/replicate.py" "$T/$trace.txt" "$kernel" "$copies" $bufs >"$T/$name.txt"
    "$B/dcusim" trace convert "$T/$name.txt" "$T/$name.dctrace" --to binary
    rm "$T/$name.txt"
    traces+=("$T/$name.dctrace")
done 3<<<"$KERNELS"
rm -f "$T"/*.txt
"$ROOT/bench/sample_big.sh" "$B" "$OUT" "${traces[@]}"
