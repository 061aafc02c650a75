#!/usr/bin/env bash
# Sampled simulation against the full run (issue 23, acceptance 3), on one trace per kernel:
# `dcusim run` with sample.mode off, then auto, on the H200 preset as `dcusim validate` replays
# validation/results/h200 (configs/h200.ini plus replay.ini's keys). Per kernel, in OUT:
# NAME.MODE.json, NAME.MODE.out and NAME.MODE.time (user s, system s, peak RSS KiB).
# The sampled run goes SAMPLED_RUNS times (default 3), each right after the one before, as
# NAME.auto.json, NAME.auto.2.json, ... (and .out, .time): the machine's speed drifts by up to a
# third between two runs of one build minutes apart (docs/PERFORMANCE.md, section 4), so the table
# takes their median CPU time, and checks that every run's JSON is the first's.
# bench/sample_table.py OUT makes the table. Traces of one kernel each: the captures of
# validation/run.py device sample, split with `dcusim trace dump` and `trace convert` where a file
# holds several (validation/results/h200-sample/README.md).
# Usage: bench/sample_big.sh BUILD_DIR OUT TRACE...
set -euo pipefail
B=$1 OUT=$2
shift 2
RUNS=${SAMPLED_RUNS:-3}
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "bench/sample_big.sh: SAMPLED_RUNS must be a positive count, not '$RUNS'" >&2; exit 2; }
mkdir -p "$OUT"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
H200=(--config "$ROOT/configs/h200.ini" --l2.flush_at_launch on --l2.dirty_at_launch_bytes 2380672)
for t in "$@"; do
    n=$(basename "$t")
    n=${n%.trace}
    n=${n%.dctrace}
    for run in off $(seq 1 "$RUNS"); do
        mode=auto sfx=auto.$run
        [ "$run" = off ] && mode=off sfx=off
        [ "$run" = 1 ] && sfx=auto
        /usr/bin/time -f "%U %S %M" -o "$OUT/$n.$sfx.time" "$B/dcusim" run "${H200[@]}" --sample.mode "$mode" -q \
            --json "$OUT/$n.$sfx.json" "$t" >"$OUT/$n.$sfx.out" 2>&1
    done
done
