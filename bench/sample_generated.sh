#!/usr/bin/env bash
# Sampled simulation against the full run on generated traces, for a machine without the captures
# (issue 23, acceptance 3's method; docs/PERFORMANCE.md, "A read stream that showed the drain rule too
# loose"): the H200 preset as bench/sample_big.sh runs it, on
#  - read: a 1 GiB read stream, 262,144 workgroups of 8 waves (4 KiB each: the L2 fills in ~14 rounds
#    and writes the launch's dirty data back while it does);
#  - write: the same as stores (the dirty data grows to the L2's limit);
#  - two_class: 1,024 lines read 8 times a wave by the first 32,768 workgroups, waits only in the other
#    229,376 (a new class ends the skipping while the first still runs).
# Each takes about a minute in full on one core. The table: bench/sample_table.py OUT.
# Usage: bench/sample_generated.sh BUILD_DIR OUT
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: bench/sample_generated.sh BUILD_DIR OUT" >&2; exit 2; }
B=$1 OUT=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
gen() { "$B/dcusim-tracegen" stream --waves 8 --lane-bytes 4 --wave-size 32 "$@"; }
gen --bytes 1G --blocks 262144 -o "$T/read.dctrace"
gen --bytes 1G --blocks 262144 --store -o "$T/write.dctrace"
gen --bytes 32M --blocks 262144 --passes 8 -o "$T/two_class.dctrace"
"$ROOT/bench/sample_big.sh" "$B" "$OUT" "$T/read.dctrace" "$T/write.dctrace" "$T/two_class.dctrace"
