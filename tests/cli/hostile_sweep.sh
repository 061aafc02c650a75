# Issue 22, sweep, validate and tracegen command lines: one-line errors with exit 2 (never an
# internal error), -j as Boost.Program_options takes short options, corrupt part files run again.
source "$(dirname "$0")/lib.bash"
GEN="$(dirname "$DCUSIM")/dcusim-tracegen"
ex="$SRC/traces/examples/transpose64.trace"

# --out where the parts cannot be made, and -j past any host: were "internal error" (exit 1).
expect_error 2 "^dcusim sweep: /proc/x.csv.parts: cannot make the folder of finished points" \
    "$DCUSIM" sweep -q --vary lds.banks=16,32 --out /proc/x.csv "$ex"
expect_error 2 "^dcusim sweep: -j: '99999999999' is not a number of jobs from 1 to 1024$" \
    "$DCUSIM" sweep -q --vary lds.banks=16,32 -j 99999999999 --out "$WORK/a.csv" "$ex"
expect_error 2 "^dcusim sweep: -j: '0x' is not a number of jobs from 1 to 1024$" "$DCUSIM" sweep -q --vary lds.banks=16 -j 0x --out "$WORK/a.csv" "$ex"
expect_error 2 "^dcusim sweep: -j: '0' is not" "$DCUSIM" sweep -q --vary lds.banks=16 -j0 --out "$WORK/a.csv" "$ex"
expect_error 2 "^dcusim sweep: -j needs a value$" "$DCUSIM" sweep -q --vary lds.banks=16 --out "$WORK/a.csv" "$ex" -j
expect_error 2 "^dcusim sweep: /nonexistent/s.json: no folder /nonexistent$" \
    "$DCUSIM" sweep -q --vary lds.banks=16 --out "$WORK/a.csv" --json /nonexistent/s.json "$ex"
[ ! -e "$WORK/a.csv" ] && [ ! -e "$WORK/a.csv.parts" ] || fail "a refused sweep left files"
expect_error 2 "^dcusim sweep: needs --vary" "$DCUSIM" sweep --out "$WORK/a.csv"
v10="1,2,3,4,5,6,7,8,9,10"
expect_error 2 "^dcusim sweep: more than 1000000 points \(traces x values of each --vary\)$" "$DCUSIM" sweep -q --vary lds.banks=$v10 \
    --vary lds.latency=$v10 --vary const.latency=$v10 --vary l1.hit_latency=$v10 --vary l2.hit_latency=$v10 --vary noc.latency=$v10 \
    --vary mem.latency=$v10 --out "$WORK/a.csv" "$ex"
expect_error 2 "^dcusim sweep: --vary lds.banks given twice$" "$DCUSIM" sweep -q --vary lds.banks=16 --vary lds.banks=32 --out "$WORK/a.csv" "$ex"
# -j1, attached: was an unknown option.
expect_ok "$DCUSIM" sweep -q --vary lds.banks=16,32,64 -j1 --out "$WORK/s.csv" "$ex"
[ "$(wc -l <"$WORK/s.csv")" -eq 7 ] || fail "-j1: 3 points x 2 kernels and a header"
cp "$WORK/s.csv" "$WORK/whole.csv"

# Resume after a part file was cut short: it was dropped silently (exit 0, rows missing). Now it is
# reported, its point runs again, and the CSV equals the uninterrupted one.
part=$(ls "$WORK/s.csv.parts/"*.csv | head -1)
head -c 200 "$part" >"$WORK/cut" && mv "$WORK/cut" "$part"
expect_ok "$DCUSIM" sweep -q --vary lds.banks=16,32,64 -j 2 --out "$WORK/s.csv" "$ex"
grep -q "^dcusim sweep: $part: corrupt (no total row: cut short): running its point again$" "$WORK/err" || fail "corrupt part: $(cat "$WORK/err")"
cmp -s "$WORK/s.csv" "$WORK/whole.csv" || fail "resumed CSV differs"
# A cell that is no number (edited by hand): the same.
sed -i '2s/,[0-9][0-9]*,/,abc,/' "$part"
expect_ok "$DCUSIM" sweep -q --vary lds.banks=16,32,64 --out "$WORK/s.csv" "$ex"
grep -q "corrupt (row 2: 'abc' is not a number): running its point again" "$WORK/err" || fail "non-numeric part: $(cat "$WORK/err")"
cmp -s "$WORK/s.csv" "$WORK/whole.csv" || fail "resumed CSV differs (abc)"

# validate: one folder of made-up results (as validate.sh).
cfg="$SRC/configs/h200.ini"
mkdir -p "$WORK/v/traces"
printf 'dcusim-trace 1\nwave_size 32\nkernel k grid 1 1 1 block 32 1 1\nwave 0 0\nld lds 4 0x10 all affine 0 128\nwait\nend\n' >"$WORK/v/traces/t.trace"
printf 'trace,kernel,family,variant,scale\ntraces/t.trace,0,lds,s32,small\n' >"$WORK/v/pairs.csv"
measure() {
    { echo "family,variant,kernel,scale,size,metric,value,unit"
      echo "lds,s32,k,small,1,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,31,"
      echo "lds,s32,k,small,1,gpc__cycles_elapsed.max,$1,cycle"; } >"$WORK/v/measurements.csv"
}
measure 1000
expect_ok "$DCUSIM" validate "$WORK/v" --config "$cfg" --out "$WORK/r" -q -j1
for v in abc nan inf 1e999; do
    measure "$v"
    expect_error 2 "^dcusim validate: $WORK/v/measurements.csv:3: column 'value': '$v' is not a number$" \
        "$DCUSIM" validate "$WORK/v" --config "$cfg" --out "$WORK/r2" -q
done
[ ! -e "$WORK/r2/report.md" ] || fail "a failed validate left a report"
measure 1000
printf 'trace,kernel,family,variant,scale\ntraces/t.trace,1e20,lds,s32,small\n' >"$WORK/v/pairs.csv"
expect_error 2 "^dcusim validate: $WORK/v/pairs.csv:2: column 'kernel': kernel index 1e20 is not a whole number" \
    "$DCUSIM" validate "$WORK/v" --config "$cfg" --out "$WORK/r2" -q
expect_error 2 "^dcusim validate: -j: '0x' is not a number of jobs" "$DCUSIM" validate "$WORK/v" -j 0x
expect_error 2 "^dcusim validate: -j: '99999999999' is not" "$DCUSIM" validate "$WORK/v" -j99999999999
expect_error 2 "^dcusim validate: --max-cycles-mape takes a percentage, not 'x'$" "$DCUSIM" validate "$WORK/v" --gate --max-cycles-mape x

printf 'trace,kernel,family,variant,scale\ntraces/t.trace,0,lds,s32,small\n' >"$WORK/v/pairs.csv"
expect_error 2 "^dcusim validate: /proc/x: cannot make the report folder" "$DCUSIM" validate "$WORK/v" --config "$cfg" --out /proc/x -q
# plot: one line, no usage dump.
expect_error 2 "^dcusim plot: /proc/x.png: cannot write \(no writable folder /proc\)$" "$DCUSIM" plot "$WORK/s.csv" --x lds.banks --y cycles --out /proc/x.png
expect_error 2 "^dcusim plot: unknown option '--bogus'$" "$DCUSIM" plot "$WORK/s.csv" --bogus
expect_error 2 "^dcusim plot: needs FILE.csv, --x KEY and --y STAT" "$DCUSIM" plot "$WORK/s.csv" --x lds.banks

# Found by fuzz_cli: Boost filled %value% into its own message for ever (a hang).
expect_error 2 "^dcusim run: '%value%' holds '%value%', which dcusim's messages cannot show: rename it$" timeout 5 "$DCUSIM" run --top '%value%'
expect_error 2 "^dcusim run: '--%canonical_option%' holds" timeout 5 "$DCUSIM" run '--%canonical_option%'

# The README's tracegen commands (printed the usage, exit 2), and bad sizes.
expect_ok "$GEN" stream --bytes 32M -o "$WORK/st.dctrace"
expect_ok "$GEN" chase --footprint 1M --stride 128 -o "$WORK/ch.dctrace"
expect_ok "$DCUSIM" trace stats "$WORK/ch.dctrace"
expect_error 2 "^dcusim-tracegen: --bytes: '32Q' is not a size \(N, NK, NM or NG, above 0\)$" "$GEN" stream --bytes 32Q -o "$WORK/x.dctrace"
expect_error 2 "^dcusim-tracegen: --waves: '99999' is not a whole number from 1 to 1024$" "$GEN" stream --waves 99999 -o "$WORK/x.dctrace"
[ ! -e "$WORK/x.dctrace" ] || fail "tracegen left a file"
finish
