# Issue 24: sweep, validate, plot, trace convert and dcusim-tracegen parse with Boost.Program_options
# (sim/cli_options.h): -j1 as -j 1, values read strictly, sizes with K, M and G, one-line errors
# naming the option, and --help listing the options the library generates.
source "$(dirname "$0")/lib.bash"
GEN="$(dirname "$DCUSIM")/dcusim-tracegen"
ex="$SRC/traces/examples/transpose64.trace"

# help_lists CMD... -- TEXT...: `CMD --help` exits 0 and its stdout holds every TEXT.
help_lists() {
    local cmd=()
    while [ "$1" != "--" ]; do cmd+=("$1"); shift; done
    shift
    "${cmd[@]}" --help >"$WORK/help" 2>"$WORK/err" || fail "${cmd[*]} --help exited $?"
    for t in "$@"; do grep -qF -- "$t" "$WORK/help" || fail "${cmd[*]} --help does not list '$t'"; done
}

# sweep: the same CSV whichever way -j and the values are written.
expect_ok "$DCUSIM" sweep -q --vary lds.banks=16,32 -j1 --out "$WORK/a.csv" "$ex"
expect_ok "$DCUSIM" sweep -q --vary lds.banks=16,32 -j 1 --out "$WORK/b.csv" "$ex"
expect_ok "$DCUSIM" sweep -q --vary=lds.banks=16,32 --jobs=2 --out="$WORK/c.csv" "$ex"
[ "$(wc -l <"$WORK/a.csv")" -eq 5 ] || fail "sweep -j1: 2 points x 2 kernels and a header"
cmp -s "$WORK/a.csv" "$WORK/b.csv" || fail "sweep -j 1 differs from -j1"
cmp -s "$WORK/a.csv" "$WORK/c.csv" || fail "sweep --jobs=2 --vary=... --out=... differs from -j1"
sweep=("$DCUSIM" sweep -q --vary lds.banks=16 --out "$WORK/x.csv")
expect_error 2 "^dcusim sweep: -j: '0x' is not a number of jobs from 1 to 1024$" "${sweep[@]}" -j 0x "$ex"
expect_error 2 "^dcusim sweep: --jobs: '0x' is not a number of jobs from 1 to 1024$" "${sweep[@]}" --jobs=0x "$ex"
expect_error 2 "^dcusim sweep: -j: '1025' is not a number of jobs from 1 to 1024$" "${sweep[@]}" -j1025 "$ex"
expect_error 2 "^dcusim sweep: unknown option '--bogus'$" "${sweep[@]}" --bogus "$ex"
expect_error 2 "^dcusim sweep: unknown option '--jo'$" "${sweep[@]}" --jo 2 "$ex"
expect_error 2 "^dcusim sweep: -j given twice$" "${sweep[@]}" -j1 -j 2 "$ex"
expect_error 2 "^dcusim sweep: --quiet takes no value$" "${sweep[@]}" --quiet=1 "$ex"
[ ! -e "$WORK/x.csv" ] && [ ! -e "$WORK/x.csv.parts" ] || fail "a refused sweep left files"
# Found by fuzz_cli: an option without a name ("--=") was an internal error, "--=x" a trace named x.
expect_error 2 "^dcusim sweep: unknown option '--='$" "${sweep[@]}" --= "$ex"
expect_error 2 "^dcusim sweep: unknown option '--=x'$" "${sweep[@]}" --=x "$ex"
expect_error 2 "^dcusim run: unrecognised option '--=x'$" "$DCUSIM" run --=x "$ex"
help_lists "$DCUSIM" sweep -- "--config FILE" "--vary KEY=V1,V2,..." "-j [ --jobs ] N (=1)" "--out FILE.csv" "--json FILE" \
    "-q [ --quiet ]" "-h [ --help ]"

# validate: a folder of made-up results (as hostile_sweep.sh).
cfg="$SRC/configs/h200.ini"
mkdir -p "$WORK/v/traces"
printf 'dcusim-trace 1\nwave_size 32\nkernel k grid 1 1 1 block 32 1 1\nwave 0 0\nld lds 4 0x10 all affine 0 128\nwait\nend\n' >"$WORK/v/traces/t.trace"
printf 'trace,kernel,family,variant,scale\ntraces/t.trace,0,lds,s32,small\n' >"$WORK/v/pairs.csv"
{ echo "family,variant,kernel,scale,size,metric,value,unit"
  echo "lds,s32,k,small,1,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,31,"
  echo "lds,s32,k,small,1,gpc__cycles_elapsed.max,1000,cycle"; } >"$WORK/v/measurements.csv"
expect_ok "$DCUSIM" validate "$WORK/v" --config "$cfg" --out "$WORK/r1" -q -j1
expect_ok "$DCUSIM" validate "$WORK/v" --config "$cfg" --out="$WORK/r2" -q -j 1
cmp -s "$WORK/r1/validation.csv" "$WORK/r2/validation.csv" || fail "validate -j 1 differs from -j1"
expect_error 2 "^dcusim validate: -j: '0x' is not a number of jobs from 1 to 1024$" "$DCUSIM" validate "$WORK/v" -j 0x
expect_error 2 "^dcusim validate: unknown option '--bogus'$" "$DCUSIM" validate "$WORK/v" --bogus
expect_error 2 "^dcusim validate: --max-l1-error takes a percentage, not '0x10'$" "$DCUSIM" validate "$WORK/v" --gate --max-l1-error 0x10
expect_error 2 "^dcusim validate: one results folder only \('$WORK/r1'\)$" "$DCUSIM" validate "$WORK/v" "$WORK/r1"
help_lists "$DCUSIM" validate -- "--config FILE" "--out REPORT_DIR (=validation-report)" "-j [ --jobs ] N (=2)" "-q [ --quiet ]" \
    "--gate" "--max-cycles-mape P (=25)" "--max-dram-error P (=10)" "--max-dram-write-mape P" "--max-l1-error PP" "--max-l2-error PP"

# plot
command -v gnuplot >/dev/null || { echo "gnuplot missing: scripts/setup.sh installs it"; exit 1; }
expect_ok "$DCUSIM" plot "$WORK/a.csv" --x=lds.banks --y lds.bank_conflict_cycles --group kernel --out="$WORK/p.svg"
grep -q "<svg" "$WORK/p.svg" || fail "plot --out=FILE.svg: not an SVG"
plot=("$DCUSIM" plot "$WORK/a.csv" --y cycles --out "$WORK/x.svg")
expect_error 2 "^dcusim plot: unknown option '--bogus'$" "${plot[@]}" --x lds.banks --bogus
expect_error 2 "^dcusim plot: --x given twice$" "${plot[@]}" --x lds.banks --x kernel
expect_error 2 "^dcusim plot: one CSV only \('$WORK/b.csv'\)$" "${plot[@]}" "$WORK/b.csv" --x lds.banks
[ ! -e "$WORK/x.svg" ] || fail "a refused plot left a picture"
help_lists "$DCUSIM" plot -- "--x KEY" "--y STAT" "--group KEY" "--kernel NAME" "--heatmap" "--title T" \
    "--out FILE.png|FILE.svg (=plot.png)"

# trace convert
expect_ok "$DCUSIM" trace convert "$ex" "$WORK/t.dctrace" --to=binary
expect_ok "$DCUSIM" trace convert "$WORK/t.dctrace" "$WORK/t.trace"
cmp -s "$WORK/t.trace" <("$DCUSIM" trace dump "$ex") || fail "trace convert --to=binary and back differs from the dump"
expect_error 2 "^dcusim trace convert: unknown option '--bogus'$" "$DCUSIM" trace convert "$ex" "$WORK/u.trace" --bogus
expect_error 2 "^dcusim trace convert: --to needs a value$" "$DCUSIM" trace convert "$ex" "$WORK/u.trace" --to
[ ! -e "$WORK/u.trace" ] || fail "a refused convert left a file"
help_lists "$DCUSIM" trace convert -- "--to text|binary"
# trace dump and stats: one FILE and no options (a word such as --bogus was taken as the file, a
# second FILE printed the usage: 4 lines).
expect_error 2 "^dcusim trace stats: unknown option '--bogus'$" "$DCUSIM" trace stats --bogus
expect_error 2 "^dcusim trace dump: one trace only \('$ex'\)$" "$DCUSIM" trace dump "$ex" "$ex"
expect_error 2 "^dcusim trace stats: needs FILE \(dcusim trace --help\)$" "$DCUSIM" trace stats
expect_error 2 "^dcusim trace: unknown subcommand 'walk' \(convert, dump, stats\)$" "$DCUSIM" trace walk "$ex"
"$DCUSIM" trace stats -- "$ex" >"$WORK/stats" || fail "trace stats -- FILE exited $?"
grep -q "^kernels 2$" "$WORK/stats" || fail "trace stats -- FILE: not the example's stats"

# run keeps Boost's own messages, but --top is read as strictly as the counts above.
expect_error 2 "^dcusim run: --top: '-1' is not a whole number from 1 to 1000000$" "$DCUSIM" run --report pcs --top -1 "$ex"
expect_error 2 "^dcusim run: --top: '0x' is not a whole number from 1 to 1000000$" "$DCUSIM" run --report pcs --top 0x "$ex"
"$DCUSIM" run --quiet --report pcs --top=2 "$ex" >"$WORK/top2a" || fail "run --top=2 exited $?"
"$DCUSIM" run --quiet --report pcs --top 2 "$ex" >"$WORK/top2b" || fail "run --top 2 exited $?"
"$DCUSIM" run --quiet --report pcs --top 3 "$ex" >"$WORK/top3" || fail "run --top 3 exited $?"
cmp -s "$WORK/top2a" "$WORK/top2b" || fail "run --top=2 differs from --top 2"
cmp -s "$WORK/top2a" "$WORK/top3" && fail "run --top 2 lists what --top 3 does: --top is not read"

# dcusim-tracegen: the README's `--bytes 32M` is 32 MiB, written any way Boost takes it.
expect_ok "$GEN" stream --bytes 32M -o "$WORK/m.dctrace"
expect_ok "$GEN" stream --bytes 33554432 -o "$WORK/n.dctrace"
cmp -s "$WORK/m.dctrace" "$WORK/n.dctrace" || fail "--bytes 32M and --bytes 33554432 differ"
expect_ok "$GEN" --bytes=32M -o"$WORK/o.dctrace" stream
cmp -s "$WORK/m.dctrace" "$WORK/o.dctrace" || fail "--bytes=32M -oOUT stream differs"
expect_ok "$GEN" stream --bytes 16M -o "$WORK/h.dctrace"
cmp -s "$WORK/m.dctrace" "$WORK/h.dctrace" && fail "--bytes 16M gives the 32M trace: the size is not read"
expect_ok "$GEN" chase --footprint 64K --stride 64 --loads 4096 -o "$WORK/c1.dctrace"
expect_ok "$GEN" chase --footprint 65536 --stride 64 --loads 4096 -o "$WORK/c2.dctrace"
cmp -s "$WORK/c1.dctrace" "$WORK/c2.dctrace" || fail "--footprint 64K and 65536 differ"
expect_error 2 "^dcusim-tracegen: unknown option '--bogus'$" "$GEN" stream --bogus -o "$WORK/x.dctrace"
expect_error 2 "^dcusim-tracegen: --blocks: '0x' is not a whole number from 1 to 4294967295$" "$GEN" stream --blocks 0x -o "$WORK/x.dctrace"
expect_error 2 "^dcusim-tracegen: --bytes given twice$" "$GEN" stream --bytes 1M --bytes 2M -o "$WORK/x.dctrace"
expect_error 2 "^dcusim-tracegen: -o needs a value$" "$GEN" stream -o
expect_error 2 "^dcusim-tracegen: one pattern only \('chase'\)$" "$GEN" stream chase -o "$WORK/x.dctrace"
[ ! -e "$WORK/x.dctrace" ] || fail "a refused tracegen left a file"
help_lists "$GEN" -- "-o [ --out ] OUT" "--blocks N (=64)" "--waves W (=4)" "--iters I (=100)" "--wave-size 32|64 (=64)" \
    "--n N (=64)" "--footprint BYTES (=8K)" "--stride BYTES (=128)" "--loads N (=1000)" "--bytes BYTES (=8M)" \
    "--lane-bytes 4|8|16 (=16)" "--passes P (=1)" "--store"
finish
