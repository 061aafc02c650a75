#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/fuzz_*.cpp) with clang into build-fuzz/ (or $DCUSIM_FUZZ_BUILD),
# replays every committed regression input, then fuzzes each harness for SECONDS from its seeds,
# as many harnesses at once as there are cores. Usage: fuzz/run.sh [SECONDS (default 30)] [HARNESS...]
# A finding (crash, sanitizer report, a run over 1 s, over 2 GB) ends that harness, makes the exit
# status 1 and leaves its input in BUILD/findings/HARNESS/; fuzz/README.md says how to make it a test.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
shift || true
build=${DCUSIM_FUZZ_BUILD:-build-fuzz}  # CI passes its sanitizer build, which has the harnesses too
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
    for f in fuzz/fuzz_*.cpp; do harnesses+=("$(basename "$f" .cpp)"); done
fi
scripts/sanitizer_build.sh "$build" "${harnesses[@]}"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
# fuzz_one HARNESS: past findings once, then SECONDS of fuzzing; its figures go to BUILD/findings/HARNESS/.
fuzz_one() {
    local h=$1 bin=$build/fuzz/$1 work=$build/corpus/$1 found=$build/findings/$1
    mkdir -p "$work" "$found"
    local seeds=()
    [ -d "fuzz/seeds/$h" ] && seeds+=("fuzz/seeds/$h")
    if [ -d "fuzz/regressions/$h" ]; then  # every past finding runs once, first
        "$bin" -timeout=1 -rss_limit_mb=2048 fuzz/regressions/"$h"/* >"$found/regressions.log" 2>&1 ||
            { echo "regressions" >"$found/failed"; return 1; }
        seeds+=("fuzz/regressions/$h")
    fi
    "$bin" -max_total_time="$secs" -timeout=1 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$found/" "$work" "${seeds[@]}" >"$found/fuzz.log" 2>&1 ||
        { echo "fuzzing" >"$found/failed"; return 1; }
}
# The harnesses run side by side, one a core.
running=0
for h in "${harnesses[@]}"; do
    rm -f "$build/findings/$h/failed"
    fuzz_one "$h" &
    running=$((running + 1))
    if [ "$running" -ge "$(nproc)" ]; then wait -n || true; running=$((running - 1)); fi
done
wait || true
status=0
printf '%-22s %12s %10s %8s\n' harness executions exec/s corpus
for h in "${harnesses[@]}"; do
    found=$build/findings/$h
    if [ -e "$found/failed" ]; then
        log=$found/fuzz.log
        [ "$(cat "$found/failed")" = regressions ] && log=$found/regressions.log
        tail -60 "$log"
        echo "fuzz/run.sh: $h: finding ($(cat "$found/failed")) in $found/ (fuzz/README.md: turning it into a regression)" >&2
        status=1
        continue
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$found/fuzz.log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$found/fuzz.log")
    printf '%-22s %12s %10s %8s\n' "$h" "$execs" "$rate" "$(ls "$build/corpus/$h" | wc -l)"
done
exit $status
