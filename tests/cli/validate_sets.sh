# dcusim validate DIR --test TEST_DIR on two made-up folders: the calibration set's one kernel
# measured 10 % above the prediction, the test set's 25 % above it with one bank conflict fewer than
# the model counts. Two blocks, in that order, each with its worst kernel and MAPE; each set's own gate.
source "$(dirname "$0")/lib.bash"
cfg="$SRC/configs/h200.ini"
mk() {  # mk DIR CONFLICTS CYCLES: one wave32 LDS read at a 128-byte stride, 31 conflicts in the model
    mkdir -p "$1/traces"
    printf 'dcusim-trace 1\nwave_size 32\nkernel k grid 1 1 1 block 32 1 1\nwave 0 0\nld lds 4 0x10 all affine 0 128\nwait\nend\n' >"$1/traces/t.trace"
    printf 'trace,kernel,family,variant,scale\ntraces/t.trace,0,lds,s32,small\n' >"$1/pairs.csv"
    { echo "family,variant,kernel,scale,size,metric,value,unit"
      echo "lds,s32,k,small,1,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,$2,"
      echo "lds,s32,k,small,1,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,0,"
      echo "lds,s32,k,small,1,gpc__cycles_elapsed.max,$3,cycle"; } >"$1/measurements.csv"
}
mk "$WORK/x" 0 1
expect_ok "$DCUSIM" run -q --config "$cfg" --csv "$WORK/p.csv" "$WORK/x/traces/t.trace"
pred=$(csv_stat "$WORK/p.csv" cycles)
[ "$pred" -ge 1000 ] || fail "the kernel takes $pred cycles: too few for the errors below to round as worked out"
# calibration: measured = 1.1 x predicted, error 1/11 = 9.1 %; test: measured = 1.25 x predicted, the
# prediction 20 % under it (-20.0 %, its MAPE 20.0 %), and 30 conflicts measured against the model's 31.
mk "$WORK/cal" 31 $((pred * 11 / 10))
mk "$WORK/tst" 30 $((pred * 5 / 4))
expect_ok "$DCUSIM" validate "$WORK/cal" --test "$WORK/tst" --config "$cfg" --out "$WORK/r" --gate -q
grep -n '^== ' "$WORK/out" >"$WORK/heads"
[ "$(cut -d: -f2- "$WORK/heads")" = "$(printf '== calibration set: %s\n== test set: %s' "$WORK/cal" "$WORK/tst")" ] ||
    fail "block headings: $(cat "$WORK/heads")"
sed -n '/^== calibration set/,/^== test set/p' "$WORK/out" >"$WORK/cal.out"
sed -n '/^== test set/,$p' "$WORK/out" >"$WORK/tst.out"
grep -Eq '^cycles MAPE: 9\.1% over 1 kernels$' "$WORK/cal.out" || fail "calibration MAPE: $(cat "$WORK/cal.out")"
grep -Eq '^worst cycles error: lds/s32 -9\.1 %$' "$WORK/cal.out" || fail "calibration worst kernel"
grep -Eq '^lds_bank_conflicts +1 +0\.0 +0\.0 .* 1/1$' "$WORK/cal.out" || fail "calibration conflicts: exact"
grep -Eq '^worst cycles error: lds/s32 -20\.0 %$' "$WORK/tst.out" || fail "test worst kernel: $(cat "$WORK/tst.out")"
grep -Eq '^lds_bank_conflicts +1 +1\.0 +1\.0 .* 0/1$' "$WORK/tst.out" || fail "test conflicts: one off"
tail -1 "$WORK/out" | grep -Eq '^cycles MAPE: 20\.0% over 1 kernels$' || fail "stdout ends with the test set's MAPE"
[ -s "$WORK/r/report.md" ] && [ -s "$WORK/r/test/report.md" ] || fail "a report for each set"
grep -q '^lds/s32,lds_bank_conflicts,30.000,31.000,1.000,abs,1$' "$WORK/r/test/validation.csv" || fail "test CSV row"
# The test set's limits: only those given, each broken one named with its set.
"$DCUSIM" validate "$WORK/cal" --test "$WORK/tst" --config "$cfg" --out "$WORK/r" --gate -q --test-max-cycles-mape 19.9 \
    --test-max-inexact-conflicts 1 >"$WORK/out" 2>"$WORK/err"
[ $? -eq 1 ] || fail "a 20.0 % test MAPE must fail --test-max-cycles-mape 19.9"
[ "$(cat "$WORK/err")" = "dcusim validate: GATE: test set: cycles MAPE 20.0% is over 19.9%" ] || fail "gate: $(cat "$WORK/err")"
"$DCUSIM" validate "$WORK/cal" --test "$WORK/tst" --config "$cfg" --out "$WORK/r" --gate -q --test-max-cycles-mape 20.1 \
    --test-max-inexact-conflicts 0 >"$WORK/out" 2>"$WORK/err"
[ $? -eq 1 ] || fail "one conflict off must fail --test-max-inexact-conflicts 0"
grep -qx "dcusim validate: GATE: test set: lds_bank_conflicts differ on 1 of 1 kernels" "$WORK/err" || fail "gate: $(cat "$WORK/err")"
expect_ok "$DCUSIM" validate "$WORK/cal" --test "$WORK/tst" --config "$cfg" --out "$WORK/r" --gate -q --test-max-cycles-mape 20.1 \
    --test-max-inexact-conflicts 1
# The calibration set keeps its own limits (exact conflicts) whatever the test set's are.
"$DCUSIM" validate "$WORK/tst" --test "$WORK/cal" --config "$cfg" --out "$WORK/r" --gate -q >"$WORK/out" 2>"$WORK/err"
[ $? -eq 1 ] || fail "the calibration set's conflicts must be exact"
grep -qx "dcusim validate: GATE: calibration set: lds_bank_conflicts differ on 1 of 1 kernels" "$WORK/err" || fail "gate: $(cat "$WORK/err")"
# Bad input: one line, exit 2.
expect_error 2 "^dcusim validate: --test-max-cycles-mape goes with --test$" "$DCUSIM" validate "$WORK/cal" --test-max-cycles-mape 5
expect_error 2 "nope/pairs.csv: cannot open" "$DCUSIM" validate "$WORK/cal" --test "$WORK/nope" --config "$cfg" --out "$WORK/r" -q
expect_error 2 "--test needs a folder" "$DCUSIM" validate "$WORK/cal" --test ""
expect_error 2 "--slurm and --status take one folder" "$DCUSIM" validate "$WORK/cal" --test "$WORK/tst" --status
finish
