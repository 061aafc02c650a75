#!/usr/bin/env bash
# Sampled simulation against the full run (issue 23, acceptance 3), on one trace per kernel:
# `dcusim run` with sample.mode off, then auto, on the H200 preset as `dcusim validate` replays
# validation/results/h200 (configs/h200.ini plus replay.ini's keys). Per kernel, in OUT:
# NAME.MODE.json, NAME.MODE.out and NAME.MODE.time (user s, system s, peak RSS KiB).
# bench/sample_table.py OUT makes the table. Traces of one kernel each: the captures of
# validation/run.py device sample, split with `dcusim trace dump` and `trace convert` where a file
# holds several (validation/results/h200-sample/README.md).
# Usage: bench/sample_big.sh BUILD_DIR OUT TRACE...
set -euo pipefail
B=$1 OUT=$2
shift 2
mkdir -p "$OUT"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
H200=(--config "$ROOT/configs/h200.ini" --l2.flush_at_launch on --l2.dirty_at_launch_bytes 2380672)
for t in "$@"; do
    n=$(basename "$t")
    n=${n%.trace}
    n=${n%.dctrace}
    for mode in off auto; do
        /usr/bin/time -f "%U %S %M" -o "$OUT/$n.$mode.time" "$B/dcusim" run "${H200[@]}" --sample.mode "$mode" -q \
            --json "$OUT/$n.$mode.json" "$t" >"$OUT/$n.$mode.out" 2>&1
    done
done
