# sample.mode auto: every output says which figures are projected and which kernels ran in full;
# a bad sample.* value is a one-line error naming the key (exit 2). Two CUs holding one workgroup
# each, workgroups of one wave of `compute 3` (12 cycles): tests/sim/test_sampling.cpp works out the
# figures (1000 workgroups: 9 simulated, 6006 cycles).
source "$(dirname "$0")/lib.bash"
kernel() {  # kernel NAME WORKGROUPS
    echo "kernel $1 grid $2 1 1 block 64 1 1"
    for ((b = 0; b < $2; ++b)); do printf 'wave %d 0\ncompute 3\n' "$b"; done
    echo end
}
t="$WORK/k.trace"
{ printf 'dcusim-trace 1\nwave_size 64\n'; kernel big 1000; kernel small 10; } >"$t"
flags=(--mem.model fixed --cu.count 2 --cu.max_workgroups 1 --sample.window_rounds 1 --sample.steady_windows 3)
expect_ok "$DCUSIM" run -q "${flags[@]}" --sample.mode auto --json "$WORK/r.json" --csv "$WORK/r.csv" "$t"
grep -q '0:big (projected)' "$WORK/out" || fail "summary: the projected kernel's column is not marked"
grep -q 'total (projected)' "$WORK/out" || fail "summary: the total's column is not marked"
grep -q '^  0:big: projected: 9 of 1000 workgroups simulated' "$WORK/out" || fail "summary: no note for the projected kernel"
grep -q '^  1:small: ran in full: 10 workgroups, fewer than sample.min_workgroups (1000)' "$WORK/out" ||
    fail "summary: the small kernel does not say it ran in full"
grep -q '"projected": true' "$WORK/r.json" || fail "json: no projected mark"
grep -q '"projected": false' "$WORK/r.json" || fail "json: the small kernel is not marked as run in full"
[ "$(json_stat "$WORK/r.json" cycles)" = 6006 ] || fail "json: cycles $(json_stat "$WORK/r.json" cycles), expected 6006"
[ "$(csv_stat "$WORK/r.csv" sample.projected)" = 1 ] || fail "csv: sample.projected is not 1"
[ "$(csv_stat "$WORK/r.csv" sample.workgroups_simulated)" = 9 ] || fail "csv: sample.workgroups_simulated is not 9"
# Off: nothing of the sampling in any output, the full figure (500 x 12 cycles).
expect_ok "$DCUSIM" run -q "${flags[@]}" --json "$WORK/o.json" --csv "$WORK/o.csv" "$t"
grep -q 'sampl\|projected' "$WORK/out" "$WORK/o.csv" && fail "off: the outputs mention sampling"
grep -q '"sample"\|"projected"\|"sample\.projected"' "$WORK/o.json" && fail "off: the JSON mentions sampling"
[ "$(json_stat "$WORK/o.json" cycles)" = 6000 ] || fail "off: cycles $(json_stat "$WORK/o.json" cycles), expected 6000"
expect_error 2 "^dcusim run: --sample.mode: key 'sample.mode': must be one of off, auto, not 'on'$" "$DCUSIM" run -q --sample.mode on "$t"
expect_error 2 "^dcusim run: --sample.steady_windows: key 'sample.steady_windows': must be at least 2, not 1$" \
    "$DCUSIM" run -q --sample.steady_windows 1 "$t"
finish
