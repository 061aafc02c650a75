#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/fuzz_*.cpp) with clang into build-fuzz/ (or $DCUSIM_FUZZ_BUILD),
# replays every committed regression input, then fuzzes each harness for SECONDS from its seeds.
# Usage: fuzz/run.sh [SECONDS_PER_HARNESS (default 30)] [HARNESS...]
# A finding (crash, sanitizer report, a run over 1 s, over 2 GB) stops with exit 1 and leaves
# its input in BUILD/findings/HARNESS/; fuzz/README.md says how to turn it into a test.
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
printf '%-22s %12s %10s %8s\n' harness executions exec/s corpus
for h in "${harnesses[@]}"; do
    bin=$build/fuzz/$h
    work=$build/corpus/$h
    found=$build/findings/$h
    mkdir -p "$work" "$found"
    seeds=()
    [ -d "fuzz/seeds/$h" ] && seeds+=("fuzz/seeds/$h")
    if [ -d "fuzz/regressions/$h" ]; then  # every past finding runs once, first
        "$bin" -timeout=1 -rss_limit_mb=2048 fuzz/regressions/"$h"/* >"$found/regressions.log" 2>&1 ||
            { tail -40 "$found/regressions.log"; echo "fuzz/run.sh: $h: a regression input fails again" >&2; exit 1; }
        seeds+=("fuzz/regressions/$h")
    fi
    log=$found/fuzz.log
    if ! "$bin" -max_total_time="$secs" -timeout=1 -rss_limit_mb=2048 -print_final_stats=1 \
            -artifact_prefix="$found/" "$work" "${seeds[@]}" >"$log" 2>&1; then
        tail -60 "$log"
        echo "fuzz/run.sh: $h: finding in $found/ (fuzz/README.md: turning it into a regression)" >&2
        exit 1
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    printf '%-22s %12s %10s %8s\n' "$h" "$execs" "$rate" "$(ls "$work" | wc -l)"
done
