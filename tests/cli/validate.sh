# dcusim validate on a made-up results folder: one wave32 LDS read at a 128-byte
# stride (32 lanes on one bank: 31 conflicts) paired with "measured" counters.
source "$(dirname "$0")/lib.bash"
cfg="$SRC/configs/h200.ini"
mk() {  # mk DIR CONFLICTS CYCLES
    mkdir -p "$1/traces"
    printf 'dcusim-trace 1\nwave_size 32\nkernel k grid 1 1 1 block 32 1 1\nwave 0 0\nld lds 4 0x10 all affine 0 128\nwait\nend\n' >"$1/traces/t.trace"
    printf 'trace,kernel,family,variant,scale\ntraces/t.trace,0,lds,s32,small\n' >"$1/pairs.csv"
    { echo "family,variant,kernel,scale,size,metric,value,unit"
      echo "lds,s32,\"k, 1\",small,1,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,$2,"
      echo "lds,s32,\"k, 1\",small,1,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,0,"
      echo "lds,s32,\"k, 1\",small,1,gpc__cycles_elapsed.max,$3,cycle"; } >"$1/measurements.csv"
}
# The predicted cycles, to make "measurements" 10 % above them.
mk "$WORK/x" 0 1
expect_ok "$DCUSIM" run -q --config "$cfg" --csv "$WORK/p.csv" "$WORK/x/traces/t.trace"
pred=$(csv_stat "$WORK/p.csv" cycles)
meas=$((pred * 11 / 10))
mk "$WORK/good" 31 "$meas"
expect_ok "$DCUSIM" validate "$WORK/good" --config "$cfg" --out "$WORK/r1" --gate -q
tail -1 "$WORK/out" | grep -Eq '^cycles MAPE: (9\.[0-9]|10\.0)% over 1 kernels$' || fail "MAPE line: $(tail -1 "$WORK/out")"
grep -q "lds_bank_conflicts" "$WORK/r1/report.md" || fail "no report"
grep -q "^lds/s32,lds_bank_conflicts,31.000,31.000,0.000,abs,1$" "$WORK/r1/validation.csv" || fail "CSV row"
# The folder's capture.ini layers on the preset after replay.ini, so its value wins: 8-byte banks put
# the 128-byte stride's 32 lanes on banks 0 and 16, 16 each: 16 wavefronts, 15 conflicts (31 without
# either file; replay.ini's 16-byte banks alone: banks 0, 8, 16, 24, 8 lanes each, 7).
mk "$WORK/cap" 15 "$meas"
printf '[lds]\nbank_bytes = 16\n' >"$WORK/cap/replay.ini"
printf '# the capture\n[lds]\nbank_bytes = 8\n' >"$WORK/cap/capture.ini"
expect_ok "$DCUSIM" validate "$WORK/cap" --config "$cfg" --out "$WORK/rc" --gate -q
grep -q "^lds/s32,lds_bank_conflicts,15.000,15.000,0.000,abs,1$" "$WORK/rc/validation.csv" || fail "capture.ini not applied"
printf '[lds]\nbank_bytes\n' >"$WORK/cap/capture.ini"
expect_error 2 "^dcusim validate: .*cap/capture.ini:2: expected 'key = value'" "$DCUSIM" validate "$WORK/cap" --config "$cfg" -q
# One conflict off: the gate fails (exit 1) and says why.
mk "$WORK/bad" 30 "$meas"
"$DCUSIM" validate "$WORK/bad" --config "$cfg" --out "$WORK/r2" --gate -q >"$WORK/out" 2>"$WORK/err"
[ $? -eq 1 ] || fail "a wrong conflict count must fail the gate"
grep -q "GATE: lds_bank_conflicts differ on 1 of 1 kernels" "$WORK/err" || fail "gate message: $(cat "$WORK/err")"
# Without --gate it reports and succeeds; a tighter cycles limit fails.
expect_ok "$DCUSIM" validate "$WORK/bad" --config "$cfg" --out "$WORK/r3" -q
"$DCUSIM" validate "$WORK/good" --config "$cfg" --out "$WORK/r4" --gate --max-cycles-mape 5 -q >/dev/null 2>"$WORK/err"
[ $? -eq 1 ] || fail "--max-cycles-mape 5 must fail on a 10 % error"
# Bad inputs: one line naming the file, exit 2, no report.
expect_error 2 "no results folder" "$DCUSIM" validate
expect_error 2 "nope/pairs.csv: cannot open" "$DCUSIM" validate "$WORK/nope" --config "$cfg"
printf 'trace,kernel,family,variant,scale\ntraces/t.trace,7,lds,s32,small\n' >"$WORK/good/pairs.csv"
expect_error 2 "t.trace has 1 kernels, no kernel 7" "$DCUSIM" validate "$WORK/good" --config "$cfg" --out "$WORK/r5" -q
[ -e "$WORK/r5/report.md" ] && fail "a failed validate left a report"
printf 'trace,kernel,family,variant,scale\ntraces/t.trace,0,lds,other,small\n' >"$WORK/good/pairs.csv"
expect_error 2 "no measurements of lds/other" "$DCUSIM" validate "$WORK/good" --config "$cfg" -q
expect_error 2 "none of the rocprof counters" "$DCUSIM" validate "$WORK/bad" -q --out "$WORK/r6"  # DCU preset: rocprof names
expect_error 2 "unknown option '--bogus'" "$DCUSIM" validate "$WORK/bad" --bogus
# An inconsistent preset is refused once, naming the file and line of the bad value.
# (The L2's size is edited in place: a key set twice in one file is an error of its own.)
sed -E 's/^size_bytes( *)= *60M/size_bytes\1= 40M/' "$cfg" >"$WORK/bad_preset.ini"
line=$(grep -n '^size_bytes *= *40M' "$WORK/bad_preset.ini" | cut -d: -f1)
expect_error 2 "^dcusim validate: .*bad_preset.ini:$line: key 'l2.size_bytes': must be a multiple" \
    "$DCUSIM" validate "$WORK/good" --config "$WORK/bad_preset.ini" -q
finish
