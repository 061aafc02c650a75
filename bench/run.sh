#!/usr/bin/env bash
# The replay benchmark: generates LDS- and constant-heavy traces of about 10 M
# and 20 M wave instructions (same workgroup shape, twice the workgroups) and
# replays each on one core with the default preset. Peak RSS must not grow
# with the trace length. Usage: bench/run.sh [BUILD_DIR]
set -euo pipefail
B=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for blocks in 2560 5120; do
    "$B/dcusim-tracegen" lds-const --blocks "$blocks" --waves 4 --iters 140 -o "$T/t.dctrace"
    echo "--- $blocks workgroups x 4 waves x 140 iterations, trace $(stat -c %s "$T/t.dctrace") bytes"
    $pin "$B/bench/bench_replay" "$T/t.dctrace"
done
