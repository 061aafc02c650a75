#!/usr/bin/env bash
# Speed against an earlier build, in the same run: builds OLD_COMMIT's bench_replay (kept in
# build-bench-<commit>/), replays bench/run.sh's traces with both builds, alternating old and new
# ROUNDS times on one core (the machine's speed drifts within minutes), and prints per trace the
# median rates, the ratio new/old, and whether both simulated the same number of cycles.
# Usage: bench/compare.sh OLD_COMMIT [NEW_BUILD_DIR (default build)] [ROUNDS (default 3)]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bench/compare.sh OLD_COMMIT [NEW_BUILD_DIR] [ROUNDS]" >&2; exit 2; }
BENCH_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$BENCH_ROOT"
old=$(git rev-parse --short=7 "$1^{commit}") || { echo "bench/compare.sh: $1: not a commit" >&2; exit 2; }
new_build=${2:-build}
rounds=${3:-3}
[ -x "$new_build/bench/bench_replay" ] || { echo "bench/compare.sh: $new_build/bench/bench_replay: not built" >&2; exit 2; }
old_src=build-bench-$old/src old_build=build-bench-$old/build
if [ ! -x "$old_build/bench/bench_replay" ]; then
    rm -rf "build-bench-$old" && mkdir -p "build-bench-$old"
    git archive "$old" | tar -x -C "build-bench-$old" --one-top-level=src
    cmake -S "$old_src" -B "$old_build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
    cmake --build "$old_build" -j"$(nproc)" --target bench_replay >/dev/null
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
source bench/traces.sh
make_traces "$new_build/dcusim-tracegen" "$T" >"$T/list"
field() { sed -n "s/^$1 //p" "$2"; }
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%F); old $old, new $(git rev-parse --short=7 HEAD)$(git diff --quiet HEAD || echo ' (with changes)'), $rounds rounds"
echo "| trace | old, wave memory instructions/s | new | new/old | same cycles |"
echo "|---|---|---|---|---|"
while IFS='|' read -r n what extra; do
    : >"$T/old.rates"
    : >"$T/new.rates"
    for ((r = 0; r < rounds; r++)); do
        for side in old new; do
            b=$old_build args=${extra//$BENCH_ROOT\//$old_src/}  # the old build reads its own presets (no keys it lacks)
            [ $side = new ] && b=$new_build args=$extra
            # shellcheck disable=SC2086  # the preset's arguments, word-split on purpose
            $pin "$b/bench/bench_replay" "$T/$n.dctrace" $args >"$T/$side.out"
            field mem_instructions_per_s "$T/$side.out" >>"$T/$side.rates"
            field simulated_cycles "$T/$side.out" >"$T/$side.cycles"
        done
    done
    o=$(median <"$T/old.rates") w=$(median <"$T/new.rates")
    same=yes
    cmp -s "$T/old.cycles" "$T/new.cycles" || same="no: $(cat "$T/old.cycles") -> $(cat "$T/new.cycles")"
    echo "| $what | $o | $w | $(awk -v a="$w" -v b="$o" 'BEGIN {printf "%.2f", a / b}') | $same |"
done <"$T/list"
