# Every statistic dcusim reports (its own dotted keys; the copies under profiler names, SQ_* or
# l1tex__*, are declared and listed apart) is in docs/stats.md, which lists exactly the counters
# the units declare (tests/unit/test_stats.cpp): on both presets, with the fixed-latency memory
# (gmem.*) and with sampling (sample.*). A key no unit declares fails the run itself.
source "$(dirname "$0")/lib.bash"
# Each run, and a key it must report.
runs=("" "--config $SRC/configs/h200.ini" "--mem.model fixed" "--sample.mode auto --sample.min_workgroups 1")
wanted=(dram.reads l2.link.sectors gmem.requests sample.projected)
for i in "${!runs[@]}"; do
    run=${runs[$i]}
    # shellcheck disable=SC2086
    expect_ok "$DCUSIM" run -q $run --csv "$WORK/s.csv" "$SRC/traces/examples/transpose64.trace"
    for key in $(head -1 "$WORK/s.csv" | tr ',' '\n' | grep -E '^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$' | grep -v '__' | grep -vx -e kernel -e name); do
        grep -qF "\`$key\`" "$SRC/docs/stats.md" || fail "stat '$key' ($run) is not in docs/stats.md"
    done
    head -1 "$WORK/s.csv" | tr ',' '\n' | grep -qx "${wanted[$i]}" || fail "$run: no ${wanted[$i]} reported"
done
finish
