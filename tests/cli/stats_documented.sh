# Every statistic dcusim reports (its own dotted keys; the copies under profiler names, SQ_* or
# l1tex__*, are mapped in their own table) is explained in docs/stats.md, on both presets.
source "$(dirname "$0")/lib.bash"
for preset in "" "--config $SRC/configs/h200.ini"; do
    # shellcheck disable=SC2086
    expect_ok "$DCUSIM" run -q $preset --csv "$WORK/s.csv" "$SRC/traces/examples/transpose64.trace"
    for key in $(head -1 "$WORK/s.csv" | tr ',' '\n' | grep -E '^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$' | grep -v '__' | grep -vx -e kernel -e name); do
        grep -qF "\`$key\`" "$SRC/docs/stats.md" || fail "stat '$key' ($preset) is not in docs/stats.md"
    done
done
finish
